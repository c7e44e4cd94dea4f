import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database.ts';
import { forUpdate, lockNamesForTransaction } from '../db/dialect.ts';

/**
 * Sliding-window counters kept in the database (table rate_limit_events), so every API
 * process on one database counts the same events. A rule, named by its scope, allows `limit`
 * events per key (an email, an address) inside any `windowMs`.
 */
export type RateLimitRule = { scope: string; limit: number; windowMs: number };

export type RateLimitDecision = { isLimited: false } | { isLimited: true; retryAfterSeconds: number };

export type RateLimitHit = { rule: RateLimitRule; key: string };

export type RateLimiter = {
  /** Whether the key has used up the rule's window, without counting anything. */
  check: (rule: RateLimitRule, key: string) => Promise<RateLimitDecision>;
  /** Counts one event (a dead link tried) against the key. */
  hit: (rule: RateLimitRule, key: string) => Promise<void>;
  /**
   * Counts one event against each key, or against none if any has used up its window: checked
   * and counted with no gap between, so requests sent side by side cannot all pass through the
   * one slot left, at one process or several.
   */
  take: (hits: readonly RateLimitHit[]) => Promise<RateLimitDecision>;
  /**
   * Takes back one event per key, the newest: a try counted by `take` before it could be known
   * harmless (a lookup found right). Events are counted, not told apart, so any one will do.
   */
  refund: (hits: readonly RateLimitHit[]) => Promise<void>;
};

/** Expired rows deleted per counted event: many times the one row it adds, and still a small delete. */
const SWEEP_BATCH = 100;

export function createRateLimiter(options: { db: Db; now: () => Date }): RateLimiter {
  const { db, now } = options;
  return {
    check: (rule, key) => decide(db, rule, key, now().getTime()),
    hit: (rule, key) =>
      db.transaction().execute(async (trx) => {
        const at = now().getTime();
        await deleteExpiredEvents(trx, rule, at);
        await insertEvent(trx, rule, key, at);
      }),
    // Under the keys' locks on PostgreSQL; on SQLite one process writes at a time, and the
    // sweep's write comes first, so even a second connection to the file waits here.
    take: (hits) =>
      db.transaction().execute(async (trx) => {
        await lockNamesForTransaction(
          trx,
          'rateLimitKey',
          hits.map(({ rule, key }) => `${rule.scope}\n${key}`),
        );
        const at = now().getTime();
        for (const { rule } of hits) await deleteExpiredEvents(trx, rule, at);
        const decisions: RateLimitDecision[] = [];
        for (const { rule, key } of hits) decisions.push(await decide(trx, rule, key, at));
        const decision = combineDecisions(decisions);
        if (!decision.isLimited) for (const { rule, key } of hits) await insertEvent(trx, rule, key, at);
        return decision;
      }),
    refund: (hits) =>
      db.transaction().execute(async (trx) => {
        for (const { rule, key } of hits) {
          await trx
            .deleteFrom('rate_limit_events')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('rate_limit_events')
                .select('id')
                .where('scope', '=', rule.scope)
                .where('key', '=', key)
                .orderBy('at', 'desc')
                .limit(1),
            )
            .execute();
        }
      }),
  };
}

async function decide(db: Db, rule: RateLimitRule, key: string, at: number): Promise<RateLimitDecision> {
  // Only the newest `limit` events inside the window can matter.
  const stamps = await db
    .selectFrom('rate_limit_events')
    .select('at')
    .where('scope', '=', rule.scope)
    .where('key', '=', key)
    .where('at', '>', at - rule.windowMs)
    .orderBy('at', 'desc')
    .limit(rule.limit)
    .execute();
  if (stamps.length < rule.limit) return { isLimited: false };
  // The window frees up when the oldest of those falls out of it.
  const oldest = stamps[stamps.length - 1]!.at;
  return { isLimited: true, retryAfterSeconds: Math.max(1, Math.ceil((oldest + rule.windowMs - at) / 1000)) };
}

async function insertEvent(trx: Db, rule: RateLimitRule, key: string, at: number): Promise<void> {
  await trx.insertInto('rate_limit_events').values({ id: randomUUID(), scope: rule.scope, key, at }).execute();
}

/**
 * Deletes a batch of the rule's events that have left its window, so a flood of made-up emails
 * cannot grow the table forever. On PostgreSQL rows another transaction is deleting are skipped
 * rather than waited for: they are going anyway.
 */
async function deleteExpiredEvents(trx: Db, rule: RateLimitRule, at: number): Promise<void> {
  await trx
    .deleteFrom('rate_limit_events')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('rate_limit_events')
        .select('id')
        .where('scope', '=', rule.scope)
        .where('at', '<=', at - rule.windowMs)
        .limit(SWEEP_BATCH)
        .$call((query) => forUpdate(trx, query, { skipLocked: true })),
    )
    .execute();
}

/** The stricter of several decisions: limited if any is, waiting for the longest. */
export function combineDecisions(decisions: RateLimitDecision[]): RateLimitDecision {
  let retryAfterSeconds = 0;
  for (const decision of decisions) {
    if (decision.isLimited) retryAfterSeconds = Math.max(retryAfterSeconds, decision.retryAfterSeconds);
  }
  return retryAfterSeconds > 0 ? { isLimited: true, retryAfterSeconds } : { isLimited: false };
}
