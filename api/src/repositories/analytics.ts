import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import {
  ACTIVE_USER_DAYS,
  emptyStatusCounts,
  PCN_STATUSES,
  type Activity,
  type AnalyticsSummary,
  type UserWithStats,
} from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { lockRows, sumOfMillisecondsBetween, utcDayOf } from '../db/dialect.ts';
import { foldHeartbeat, millisecondsToWholeMinutes, type SiteVisit } from '../domain/site-time.ts';

export const RECENT_ACTIVITY_COUNT = 20;
export const PCNS_PER_DAY_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Folds one heartbeat into the user's visits. Read and write share one transaction, so two tabs
 * whose heartbeats arrive together cannot both start a visit.
 */
export async function recordHeartbeat(db: Db, input: { userId: string; now: Date }): Promise<SiteVisit> {
  return db.transaction().execute(async (trx) => {
    // SQLite's one writer already runs the two tabs' folds in turn; PostgreSQL does once the
    // first locks the user's row.
    await lockRows(trx, trx.selectFrom('users').select('id').where('id', '=', input.userId));
    const latestRow = await trx
      .selectFrom('site_visits')
      .select(['id', 'started_at', 'last_seen_at'])
      .where('user_id', '=', input.userId)
      .orderBy('last_seen_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const latest = latestRow ? { id: latestRow.id, startedAt: latestRow.started_at, lastSeenAt: latestRow.last_seen_at } : null;
    const fold = foldHeartbeat(latest, input.now);
    if (fold.kind === 'extend') {
      await trx.updateTable('site_visits').set({ last_seen_at: fold.lastSeenAt }).where('id', '=', fold.visitId).execute();
      return { id: fold.visitId, startedAt: latest!.startedAt, lastSeenAt: fold.lastSeenAt };
    }
    const visit = { id: randomUUID(), startedAt: fold.startedAt, lastSeenAt: fold.lastSeenAt };
    await trx
      .insertInto('site_visits')
      .values({ id: visit.id, user_id: input.userId, started_at: visit.startedAt, last_seen_at: visit.lastSeenAt })
      .execute();
    return visit;
  });
}

/** The admin dashboard's figures; every count is one aggregate query, whatever the data size. */
export async function findAnalyticsSummary(db: Db, now: Date): Promise<AnalyticsSummary> {
  const activeSince = new Date(now.getTime() - ACTIVE_USER_DAYS * DAY_MS).toISOString();
  const days = lastUtcDays(now, PCNS_PER_DAY_DAYS);
  const firstDayStart = `${days[0]}T00:00:00.000Z`;

  const [users, active, pcns, activities, recent, perDay, byStatus] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('activities')
      .select((eb) => eb.fn.count<number>('user_id').distinct().as('count'))
      .where('created_at', '>=', activeSince)
      .where('user_id', 'is not', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('pcns')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('activities')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow(),
    findRecentActivities(db, RECENT_ACTIVITY_COUNT),
    db
      .selectFrom('pcns')
      .select([utcDayOf(db, 'created_at').as('day'), (eb) => eb.fn.countAll<number>().as('count')])
      .where('created_at', '>=', firstDayStart)
      .groupBy(utcDayOf(db, 'created_at'))
      .execute(),
    db
      .selectFrom('pcns')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute(),
  ]);

  const countByDay = new Map(perDay.map((row) => [row.day, Number(row.count)]));
  const pcnsByStatus = emptyStatusCounts();
  for (const row of byStatus) {
    if (PCN_STATUSES.includes(row.status)) pcnsByStatus[row.status] = Number(row.count);
  }

  return {
    totalUsers: Number(users.count),
    activeUsers: Number(active.count),
    totalPCNs: Number(pcns.count),
    totalActivities: Number(activities.count),
    recentActivities: recent,
    pcnsPerDay: days.map((date) => ({ date, count: countByDay.get(date) ?? 0 })),
    pcnsByStatus,
  };
}

export async function findRecentActivities(db: Db, limit: number): Promise<Activity[]> {
  const rows = await db
    .selectFrom('activities')
    .leftJoin('users', 'users.id', 'activities.user_id')
    .leftJoin('pcns', 'pcns.id', 'activities.pcn_id')
    .select([
      'pcns.id as pcn_id',
      'pcns.pcn_number',
      'activities.id',
      'activities.activity_type',
      'activities.description',
      'activities.created_at',
      'activities.user_id',
      'users.first_name',
      'users.last_name',
    ])
    // rowid breaks ties between activities recorded in the same millisecond, newest insert first.
    .orderBy('activities.created_at', 'desc')
    .orderBy(sql`activities.rowid`, 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    activityType: row.activity_type,
    description: row.description,
    createdAt: row.created_at,
    user:
      row.user_id && row.first_name !== null && row.last_name !== null
        ? { id: row.user_id, firstName: row.first_name, lastName: row.last_name }
        : null,
    pcn: row.pcn_id && row.pcn_number ? { id: row.pcn_id, pcnNumber: row.pcn_number } : null,
  }));
}

/**
 * Every user with their figures, built from four grouped queries (users, activities, PCNs,
 * visits) and joined in memory, so the cost does not grow with one query per user.
 */
export async function findUsersWithStats(db: Db): Promise<UserWithStats[]> {
  const [users, activityStats, pcnCounts, visitTimes] = await Promise.all([
    db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'email', 'role'])
      .orderBy('last_name')
      .orderBy('first_name')
      .orderBy('email')
      .execute(),
    db
      .selectFrom('activities')
      .select([
        'user_id',
        sql<number>`sum(case when activity_type = 'LOGIN' then 1 else 0 end)`.as('logins'),
        sql<number>`sum(case when activity_type = 'PCN_VIEWED' then 1 else 0 end)`.as('views'),
        (eb) => eb.fn.max('created_at').as('last_activity_at'),
      ])
      .where('user_id', 'is not', null)
      .groupBy('user_id')
      .execute(),
    db
      .selectFrom('pcns')
      .select(['created_by', (eb) => eb.fn.countAll<number>().as('count')])
      .where('created_by', 'is not', null)
      .groupBy('created_by')
      .execute(),
    db
      .selectFrom('site_visits')
      .select(['user_id', sumOfMillisecondsBetween(db, 'started_at', 'last_seen_at').as('ms')])
      .groupBy('user_id')
      .execute(),
  ]);

  const activityByUser = new Map(activityStats.map((row) => [row.user_id, row]));
  const pcnsByUser = new Map(pcnCounts.map((row) => [row.created_by, Number(row.count)]));
  const msByUser = new Map(visitTimes.map((row) => [row.user_id, Number(row.ms)]));

  return users.map((user) => {
    const activity = activityByUser.get(user.id);
    return {
      user: {
        id: user.id,
        firstName: user.first_name,
        lastName: user.last_name,
        email: user.email,
        role: user.role,
      },
      stats: {
        totalLogins: Number(activity?.logins ?? 0),
        totalPCNsSubmitted: pcnsByUser.get(user.id) ?? 0,
        totalPCNsViewed: Number(activity?.views ?? 0),
        totalTimeOnSite: millisecondsToWholeMinutes(msByUser.get(user.id) ?? 0),
        lastActivityAt: activity?.last_activity_at ?? null,
      },
    };
  });
}

/** The last `count` UTC dates ending today, oldest first, as YYYY-MM-DD. */
export function lastUtcDays(now: Date, count: number): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10));
}
