/**
 * What a LANDOWNER's session may ask for (decision 0042): their profile, their car parks, each
 * car park's charges (without the motorist), permits, monthly report and terms' history, and a request that a
 * charge be cancelled. Everything else answers 403 before any route runs, so a route added for
 * officers or admins stays closed to landowners until it is listed here on purpose; each listed
 * route's workflow still checks that the car park or charge is one of theirs (404 otherwise).
 */
const LANDOWNER_ROUTES: ReadonlyArray<{ method: string; path: RegExp }> = [
  { method: 'GET', path: /^\/api\/users\/profile$/ },
  { method: 'PUT', path: /^\/api\/users\/profile$/ },
  { method: 'GET', path: /^\/api\/car-parks$/ },
  { method: 'GET', path: /^\/api\/car-parks\/[^/]+\/charges$/ },
  { method: 'GET', path: /^\/api\/car-parks\/[^/]+\/reports\/monthly(?:\.csv|\.pdf)?$/ },
  // The terms on their land's signs and notices, and who changed them when.
  { method: 'GET', path: /^\/api\/car-parks\/[^/]+\/terms-history$/ },
  // Their car parks' permits and visitor page (the permits workflows check the assignment).
  { method: '*', path: /^\/api\/car-parks\/[^/]+\/(?:permits|visitor)(?:\/.*)?$/ },
  { method: 'POST', path: /^\/api\/pcns\/[^/]+\/cancellation-requests$/ },
  { method: 'POST', path: /^\/api\/tracking\/heartbeat$/ },
];

export function mayLandownerUse(method: string, path: string): boolean {
  const trimmed = path.replace(/\/+$/, '');
  const upper = method.toUpperCase();
  return LANDOWNER_ROUTES.some((route) => (route.method === '*' || route.method === upper) && route.path.test(trimmed));
}
