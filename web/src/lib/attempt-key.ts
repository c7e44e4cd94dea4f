/**
 * One Idempotency-Key per attempt at recording something: the same key goes with every send of
 * that attempt (a retry after a lost answer or an error), so the server records it once, and a
 * new one is made only once it was recorded, for the next. Kept in the form's state, so a retry
 * from the same form reuses it.
 */
export type AttemptKey = { readonly current: string; recorded(): void };

export function createAttemptKey(newKey: () => string = () => crypto.randomUUID()): AttemptKey {
  let key = newKey();
  return {
    get current() {
      return key;
    },
    recorded() {
      key = newKey();
    },
  };
}
