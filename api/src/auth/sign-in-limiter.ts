/**
 * Limits on password guesses (design section 7, issue 13): sign-in and the profile's
 * current-password check share one limiter.
 *
 * - An attempt is counted (reserved) before the slow password hash runs, so a burst of guesses
 *   sent side by side cannot all slip through while the first ones are still being hashed; the
 *   right password refunds its attempt, a wrong one settles it as a failure.
 * - The lock is keyed on the account and the address together: a stranger guessing from
 *   elsewhere cannot lock the real user out. A looser cap per address stops one address
 *   spraying guesses over many accounts without blocking an office behind one NAT.
 * - Before the lock, from the second failure on, each further failure waits twice as long as
 *   the one before (backoff). One typo costs nothing: a person retyping, or a password manager
 *   filling in the right one straight after a wrong one, is not kept waiting. The backoff counts
 *   settled failures only, so two tabs signing in at once both get in.
 *
 * Callers see only this interface: the memory store below fits one API process (SQLite); a
 * database-backed one can replace it without touching the routes.
 */
export type SignInAttempt = { account: string; address: string; at: number };

export type SignInDecision = { isAllowed: true; attempt: SignInAttempt } | { isAllowed: false; retryAfterSeconds: number };

export type SignInLimiter = {
  /** Counts one guess for the account at the address, or refuses it with how long to wait. */
  reserve: (account: string, address: string) => Promise<SignInDecision>;
  /** The guess was right: it does not count, and the account's failures at that address are forgotten. */
  refund: (attempt: SignInAttempt) => Promise<void>;
  /** The guess was wrong: it stays counted, and the next guess must wait (backoff). */
  fail: (attempt: SignInAttempt) => Promise<void>;
  /** Forgets every failure of the account (its password was reset by email). */
  forgetAccount: (account: string) => Promise<void>;
};

export type SignInPolicy = {
  /** Failures of one account from one address inside the window before it is locked there. */
  failuresPerAccountAddress: number;
  /** Failures from one address, over any accounts, inside the window. */
  failuresPerAddress: number;
  windowMs: number;
  /** The wait after the second failure; doubled after each further one (the first costs none). */
  backoffBaseMs: number;
};

export const SIGN_IN_POLICY: SignInPolicy = {
  failuresPerAccountAddress: 5,
  failuresPerAddress: 100,
  windowMs: 15 * 60 * 1000,
  backoffBaseMs: 1000,
};

/** One counted guess: when it was reserved (or, once known to be wrong, answered) and whether it was wrong. */
export type CountedGuess = { at: number; isFailure: boolean };

/**
 * Whether a new guess may go ahead, given the earlier ones still counted for the account at this
 * address (oldest first) and the count for the address alone. Pure. Every counted guess takes a
 * slot; from the second settled failure the backoff runs from the last one and doubles with each.
 */
export function decideSignInAttempt(
  pairGuesses: readonly CountedGuess[],
  addressStamps: readonly number[],
  at: number,
  policy: SignInPolicy,
): { isAllowed: true } | { isAllowed: false; retryAfterSeconds: number } {
  const waitUntil: number[] = [];
  const pair = pairGuesses.filter((guess) => guess.at > at - policy.windowMs);
  const address = addressStamps.filter((stamp) => stamp > at - policy.windowMs);
  const failures = pair.filter((guess) => guess.isFailure);
  if (pair.length >= policy.failuresPerAccountAddress) {
    // Locked until enough of the counted guesses leave the window.
    waitUntil.push(pair[pair.length - policy.failuresPerAccountAddress]!.at + policy.windowMs);
  } else if (failures.length > 1) {
    waitUntil.push(failures[failures.length - 1]!.at + policy.backoffBaseMs * 2 ** (failures.length - 2));
  }
  if (address.length >= policy.failuresPerAddress) {
    waitUntil.push(address[address.length - policy.failuresPerAddress]! + policy.windowMs);
  }
  const until = Math.max(at, ...waitUntil);
  if (until <= at) return { isAllowed: true };
  return { isAllowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - at) / 1000)) };
}

/** Above this many keys, expired ones are swept so a flood of made-up emails cannot grow memory forever. */
const SWEEP_THRESHOLD = 10_000;

export function createMemorySignInLimiter(options: { now: () => Date; policy?: SignInPolicy }): SignInLimiter {
  const policy = options.policy ?? SIGN_IN_POLICY;
  const byPair = new Map<string, CountedGuess[]>();
  const byAddress = new Map<string, number[]>();
  const pairKey = (account: string, address: string) => `${account}\n${address}`;

  function recent<T>(map: Map<string, T[]>, key: string, at: number, stampOf: (entry: T) => number): T[] {
    const entries = (map.get(key) ?? []).filter((entry) => stampOf(entry) > at - policy.windowMs);
    if (entries.length === 0) map.delete(key);
    else map.set(key, entries);
    return entries;
  }

  function sweep(at: number): void {
    if (byPair.size > SWEEP_THRESHOLD) for (const key of [...byPair.keys()]) recent(byPair, key, at, (guess) => guess.at);
    if (byAddress.size > SWEEP_THRESHOLD) for (const key of [...byAddress.keys()]) recent(byAddress, key, at, (stamp) => stamp);
  }

  return {
    // Synchronous inside: check and count happen with no await between them, so two guesses
    // arriving together can never both see the same free slot.
    async reserve(account, address) {
      const at = options.now().getTime();
      sweep(at);
      const key = pairKey(account, address);
      const pair = recent(byPair, key, at, (guess) => guess.at);
      const addressStamps = recent(byAddress, address, at, (stamp) => stamp);
      const decision = decideSignInAttempt(pair, addressStamps, at, policy);
      if (!decision.isAllowed) return decision;
      byPair.set(key, [...pair, { at, isFailure: false }].slice(-policy.failuresPerAccountAddress));
      byAddress.set(address, [...addressStamps, at].slice(-policy.failuresPerAddress));
      return { isAllowed: true, attempt: { account, address, at } };
    },
    async refund(attempt) {
      byPair.delete(pairKey(attempt.account, attempt.address));
      const stamps = byAddress.get(attempt.address);
      const index = stamps?.indexOf(attempt.at) ?? -1;
      if (stamps && index >= 0) stamps.splice(index, 1);
    },
    // The backoff runs from the answer, not from the request: a slow hash must not eat the wait.
    async fail(attempt) {
      const guesses = byPair.get(pairKey(attempt.account, attempt.address));
      const guess = guesses?.find((entry) => entry.at === attempt.at && !entry.isFailure);
      if (!guesses || !guess) return;
      guess.isFailure = true;
      guess.at = Math.max(guess.at, options.now().getTime());
      guesses.sort((a, b) => a.at - b.at);
    },
    async forgetAccount(account) {
      for (const key of [...byPair.keys()]) if (key.startsWith(`${account}\n`)) byPair.delete(key);
    },
  };
}
