/**
 * How many photo uploads run at once, per user and in all. Each upload holds a parser, open
 * temporary files and a socket for as long as the client takes to send; without a cap one
 * account could open hundreds. The phone's outbox sends one notice at a time, so a few per
 * user leaves room for a second device or tab and for a resend overlapping its lost answer. Refusals name a wait: the outbox retries 429
 * and 503 with backoff.
 */
export const UPLOADS_PER_USER = 4;
export const UPLOADS_IN_ALL = 32;
const RETRY_AFTER_SECONDS = 1;

export type GateEntry = { ok: true; leave: () => void } | { ok: false; scope: 'user' | 'server'; retryAfterSeconds: number };

export type UploadGate = { enter: (userId: string) => GateEntry };

export function createUploadGate(options: { perUser?: number; inAll?: number } = {}): UploadGate {
  const perUser = options.perUser ?? UPLOADS_PER_USER;
  const inAll = options.inAll ?? UPLOADS_IN_ALL;
  const byUser = new Map<string, number>();
  let total = 0;

  return {
    enter(userId: string): GateEntry {
      const mine = byUser.get(userId) ?? 0;
      if (mine >= perUser) return { ok: false, scope: 'user', retryAfterSeconds: RETRY_AFTER_SECONDS };
      if (total >= inAll) return { ok: false, scope: 'server', retryAfterSeconds: RETRY_AFTER_SECONDS };
      byUser.set(userId, mine + 1);
      total += 1;
      let hasLeft = false;
      return {
        ok: true,
        leave() {
          if (hasLeft) return;
          hasLeft = true;
          total -= 1;
          const left = (byUser.get(userId) ?? 1) - 1;
          if (left > 0) byUser.set(userId, left);
          else byUser.delete(userId);
        },
      };
    },
  };
}
