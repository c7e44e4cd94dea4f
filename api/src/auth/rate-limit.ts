/**
 * An in-memory sliding-window counter. One process serves the API (SQLite, design section 5),
 * so memory is the right store; a restart forgets the counts, which only ever errs towards
 * letting a user in.
 */
export type RateLimitDecision = { isLimited: false } | { isLimited: true; retryAfterSeconds: number };

export type RateLimiter = {
  /** Whether the key has used up its window, without counting anything. */
  check: (key: string) => RateLimitDecision;
  /** Counts one event (a failed sign-in, a reset request) against the key. */
  hit: (key: string) => void;
  reset: (key: string) => void;
};

/** Above this many keys, expired ones are swept so a flood of made-up emails cannot grow memory forever. */
const SWEEP_THRESHOLD = 10_000;

export function createRateLimiter(options: { limit: number; windowMs: number; now: () => Date }): RateLimiter {
  const { limit, windowMs, now } = options;
  const hits = new Map<string, number[]>();

  function recent(key: string, at: number): number[] {
    const stamps = (hits.get(key) ?? []).filter((stamp) => stamp > at - windowMs);
    if (stamps.length === 0) hits.delete(key);
    else hits.set(key, stamps);
    return stamps;
  }

  function sweep(at: number): void {
    for (const key of [...hits.keys()]) recent(key, at);
  }

  return {
    check(key) {
      const at = now().getTime();
      const stamps = recent(key, at);
      if (stamps.length < limit) return { isLimited: false };
      // The window frees up when the oldest counted event inside it falls out.
      const oldest = stamps[stamps.length - limit] ?? at;
      return { isLimited: true, retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - at) / 1000)) };
    },
    hit(key) {
      const at = now().getTime();
      if (hits.size > SWEEP_THRESHOLD) sweep(at);
      const stamps = recent(key, at);
      stamps.push(at);
      // Only the newest `limit` events can matter for a decision.
      hits.set(key, stamps.slice(-limit));
    },
    reset(key) {
      hits.delete(key);
    },
  };
}

/** The stricter of several decisions: limited if any is, waiting for the longest. */
export function combineDecisions(decisions: RateLimitDecision[]): RateLimitDecision {
  let retryAfterSeconds = 0;
  for (const decision of decisions) {
    if (decision.isLimited) retryAfterSeconds = Math.max(retryAfterSeconds, decision.retryAfterSeconds);
  }
  return retryAfterSeconds > 0 ? { isLimited: true, retryAfterSeconds } : { isLimited: false };
}
