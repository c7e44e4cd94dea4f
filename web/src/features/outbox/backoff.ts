/**
 * Retry timing of the outbox. Full jitter (a random delay between zero and the exponential
 * ceiling) spreads the retries of many phones that regain signal at the same moment, such as a
 * shift returning to the depot, instead of having them all hit the server in lockstep.
 */

export type BackoffOptions = {
  /** Ceiling of the first retry. */
  baseMs: number;
  /** The ceiling never grows beyond this, so a notice is retried at least this often. */
  capMs: number;
  /** A floor, so a retry never spins in a tight loop when random() returns 0. */
  minMs: number;
};

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 5_000, capMs: 5 * 60_000, minMs: 1_000 };

/** Delay before retry number `attempt` (1 for the first retry). `random` returns [0, 1). */
export function computeBackoffDelay(attempt: number, random: () => number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  const exponent = Math.max(0, attempt - 1);
  // 2 ** 30 already dwarfs any cap; clamping the exponent keeps the number finite.
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** Math.min(exponent, 30));
  return Math.max(options.minMs, Math.floor(random() * ceiling));
}

/**
 * Milliseconds the server asked us to wait (RFC 9110 Retry-After: delta seconds or an HTTP
 * date), or null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null, now: number): number | null {
  if (!header) return null;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date always names its month; without this, Date.parse('-5') reads a year.
  if (!/[a-z]/i.test(trimmed)) return null;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now);
}

/** When to try again: the jittered backoff, but never sooner than the server asked. */
export function computeNextAttemptAt(
  attempt: number,
  now: number,
  random: () => number,
  retryAfterMs: number | null = null,
  options: BackoffOptions = DEFAULT_BACKOFF,
): number {
  const delay = computeBackoffDelay(attempt, random, options);
  return now + Math.max(delay, retryAfterMs ?? 0);
}
