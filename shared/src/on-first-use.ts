/**
 * A value made the first time it is asked for, then kept. For what costs to build and is not
 * needed at start: an Intl formatter with a time zone loads the zone's rules (tens of
 * milliseconds on a slow phone), and a module that built one as it loaded made every first visit
 * pay for it before the app could take over the painted sign-in form.
 */
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
