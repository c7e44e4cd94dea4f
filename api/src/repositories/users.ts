import { randomUUID } from 'node:crypto';
import { sql, type Expression, type Selectable } from 'kysely';
import {
  DEFAULT_SORTS,
  resolveSort,
  type CarParkSummary,
  type OnboardingCandidate,
  type OnboardingListQuery,
  type OnboardingSortKey,
  type Role,
  type User,
  type UserListQuery,
  type UserSortKey,
} from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import { jsonArrayFrom, likeIgnoringCase, lockForWrites, parseJsonArray } from '../db/dialect.ts';
import { reusableQuery } from '../db/reusable-query.ts';
import type { UsersTable } from '../db/schema.ts';
import { orderedBy, type ListOrder } from './list-order.ts';

/** Every column but the hash: what leaves this module never carries a password hash. */
const USER_COLUMNS = ['id', 'email', 'first_name', 'last_name', 'role', 'is_active', 'created_at', 'updated_at'] as const;

type UserRow = Omit<Selectable<UsersTable>, 'password_hash'> & { has_password: number };

export function mapUser(row: UserRow, carParks?: CarParkSummary[]): User {
  const user: User = {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    role: row.role,
    isActive: row.is_active,
    hasPassword: row.has_password === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (carParks) user.carParks = carParks;
  return user;
}

function selectUsers(db: Db) {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .select((eb) => eb.case().when('password_hash', 'is not', null).then(1).else(0).end().as('has_password'));
}

const carParkSummaries = reusableQuery((db: Db, userIds: readonly string[]) =>
  db
    .selectFrom('car_park_users')
    .innerJoin('car_parks', 'car_parks.id', 'car_park_users.car_park_id')
    .select(['car_park_users.user_id', 'car_parks.id', 'car_parks.name'])
    .where('car_park_users.user_id', 'in', userIds)
    .orderBy('car_parks.name'),
);

/** The car parks assigned to each user, by user id, for list and profile answers. */
export async function findCarParkSummariesByUser(db: Db, userIds: string[]): Promise<Map<string, CarParkSummary[]>> {
  const byUser = new Map<string, CarParkSummary[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await carParkSummaries(db, userIds);
  for (const row of rows) byUser.get(row.user_id)?.push({ id: row.id, name: row.name });
  return byUser;
}

export async function findUserById(db: Db, id: string, options: { withCarParks?: boolean } = {}): Promise<User | undefined> {
  const row = await selectUsers(db).where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  if (!options.withCarParks) return mapUser(row);
  const carParks = await findCarParkSummariesByUser(db, [id]);
  return mapUser(row, carParks.get(id) ?? []);
}

export async function isEmailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  let query = db.selectFrom('users').select('id').where('email', '=', email);
  if (exceptUserId) query = query.where('id', '!=', exceptUserId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The signed-in user's row, read fresh by requireAuth on every request (so a deactivation or a
 * role change counts at once) and handed on to the route: the profile answers from it.
 */
const sessionUser = reusableQuery((db: Db, id: string) => selectUsers(db).where('id', '=', id));

/**
 * The same row with the user's car parks (as findCarParkSummariesByUser lists them) in the same
 * statement, as a JSON array: GET /users/profile, which every start of the app asks for, is
 * answered from one read instead of two.
 */
const sessionUserWithCarParks = reusableQuery((db: Db, id: string) => {
  return selectUsers(db)
    .select((eb) =>
      jsonArrayFrom(
        db,
        eb
          .selectFrom('car_park_users')
          .innerJoin('car_parks', 'car_parks.id', 'car_park_users.car_park_id')
          .select(['car_parks.id', 'car_parks.name'])
          .whereRef('car_park_users.user_id', '=', 'users.id')
          .orderBy('car_parks.name'),
      ).as('car_parks'),
    )
    .where('id', '=', id);
});

export async function findSessionUser(db: Db, id: string, options: { withCarParks?: boolean } = {}): Promise<User | undefined> {
  if (!options.withCarParks) {
    const [row] = await sessionUser(db, id);
    return row && mapUser(row);
  }
  const [row] = await sessionUserWithCarParks(db, id);
  if (!row) return undefined;
  const carParks: CarParkSummary[] = parseJsonArray(row.car_parks);
  return mapUser(row, carParks);
}

/** For sign-in only: the one place the hash is read, and it goes no further than the verifier. */
type Credentials = { id: string; passwordHash: string | null; isActive: boolean };

export async function findCredentialsByEmail(db: Db, email: string): Promise<Credentials | undefined> {
  return findCredentials(db, 'email', email);
}

export async function findCredentialsById(db: Db, id: string): Promise<Credentials | undefined> {
  return findCredentials(db, 'id', id);
}

async function findCredentials(db: Db, column: 'email' | 'id', value: string): Promise<Credentials | undefined> {
  const row = await db.selectFrom('users').select(['id', 'password_hash', 'is_active']).where(column, '=', value).executeTakeFirst();
  return row ? { id: row.id, passwordHash: row.password_hash, isActive: row.is_active } : undefined;
}

export async function findPasswordHash(db: Db, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

/**
 * Sets a new hash. With `replacing`, only while the stored hash is still that one: a rehash after
 * sign-in runs after the slow password check, and a password reset that lands meanwhile wins.
 */
export async function setPasswordHash(
  db: Db,
  userId: string,
  input: { passwordHash: string; now: Date; replacing?: string },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: input.passwordHash, updated_at: input.now.toISOString() })
    .where('id', '=', userId)
    .$if(input.replacing !== undefined, (query) => query.where('password_hash', '=', input.replacing!))
    .execute();
}

/** LIKE with the user's text taken literally (used with ESCAPE '\'): % and _ match themselves. */
export function toLikePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

/** The Manage Users list's filters (search, role, active) and sort; its page aside. */
export type UserListFilter = Omit<UserListQuery, 'page' | 'limit'>;

/** What each sort key orders by, then the id: one place per user, so pages never repeat or skip one. */
const USER_SORT_COLUMNS: Record<UserSortKey, readonly Expression<unknown>[]> = {
  name: [sql`lower(users.first_name)`, sql`lower(users.last_name)`],
  email: [sql`lower(users.email)`],
  role: [sql`users.role`],
  isActive: [sql`users.is_active`],
  created: [sql`users.created_at`],
};

function userListOrder(filter: UserListFilter): ListOrder {
  const { sort, order } = resolveSort(filter.sort, filter.order, DEFAULT_SORTS.users);
  return { columns: [...USER_SORT_COLUMNS[sort], sql`users.id`], direction: order };
}

function filteredUsers(db: Db, filter: UserListFilter) {
  let filtered = db.selectFrom('users');
  if (filter.search) {
    const pattern = toLikePattern(filter.search);
    const like = likeIgnoringCase(db);
    filtered = filtered.where(
      sql<boolean>`(first_name || ' ' || last_name ${like} ${pattern} escape '\\' or email ${like} ${pattern} escape '\\')`,
    );
  }
  if (filter.role) filtered = filtered.where('role', '=', filter.role);
  if (filter.isActive !== undefined) filtered = filtered.where('is_active', '=', filter.isActive);
  return filtered;
}

export async function listUsers(db: Db, query: UserListQuery): Promise<{ users: User[]; total: number }> {
  const filtered = filteredUsers(db, query);
  const countRow = await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await orderedBy(filtered, userListOrder(query))
    .select(USER_COLUMNS)
    .select((eb) => eb.case().when('password_hash', 'is not', null).then(1).else(0).end().as('has_password'))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const carParks = await findCarParkSummariesByUser(
    db,
    rows.map((r) => r.id),
  );
  return { users: rows.map((row) => mapUser(row, carParks.get(row.id) ?? [])), total: Number(countRow.total) };
}

/**
 * 'Select all matching' on Manage Users: id and active flag of every user the list selects, in
 * its order, up to `cap` + 1 rows, so the caller can tell "at most cap" from "more".
 */
export async function findUserSelection(db: Db, filter: UserListFilter, cap: number): Promise<Array<{ id: string; isActive: boolean }>> {
  const rows = await orderedBy(filteredUsers(db, filter), userListOrder(filter))
    .select(['id', 'is_active'])
    .limit(cap + 1)
    .execute();
  return rows.map((row) => ({ id: row.id, isActive: row.is_active }));
}

/** Each existing user's name by id, for naming rows in a bulk answer; unknown ids are left out. */
export async function findUserNames(db: Db, userIds: readonly string[]): Promise<Map<string, { firstName: string; lastName: string }>> {
  const names = new Map<string, { firstName: string; lastName: string }>();
  // Chunked to stay well under SQLite's bound-parameter limit.
  for (let start = 0; start < userIds.length; start += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name'])
      .where('id', 'in', userIds.slice(start, start + 500))
      .execute();
    for (const row of rows) names.set(row.id, { firstName: row.first_name, lastName: row.last_name });
  }
  return names;
}

export async function insertUser(
  db: Db,
  input: { email: string; firstName: string; lastName: string; role: Role; passwordHash: string | null; isActive: boolean; now: Date },
): Promise<string> {
  const id = randomUUID();
  const stamp = input.now.toISOString();
  await db
    .insertInto('users')
    .values({
      id,
      email: input.email,
      first_name: input.firstName,
      last_name: input.lastName,
      role: input.role,
      password_hash: input.passwordHash,
      is_active: input.isActive,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return id;
}

/**
 * Changes to who is an admin and who is active, one at a time until the transaction ends. The
 * user rules (nobody deactivates, demotes or deletes themselves; only a SUPER_ADMIN manages
 * admins) keep an active SUPER_ADMIN only if each change is checked against the accounts as the
 * changes before it left them: two super admins deactivating each other at once must not both
 * succeed. SQLite runs the transaction alone already; PostgreSQL takes a transaction-level
 * advisory lock, so every API process waits its turn. Call it first in every transaction that
 * changes a role or an active flag, or deletes a user, and read the accounts after it.
 */
export async function lockUserRoles(trx: Db): Promise<void> {
  await lockForWrites(trx, 'user-roles');
}

export async function updateUser(
  db: Db,
  id: string,
  input: Partial<{ email: string; firstName: string; lastName: string; role: Role; passwordHash: string; isActive: boolean }> & {
    now: Date;
  },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(input.email !== undefined && { email: input.email }),
      ...(input.firstName !== undefined && { first_name: input.firstName }),
      ...(input.lastName !== undefined && { last_name: input.lastName }),
      ...(input.role !== undefined && { role: input.role }),
      ...(input.passwordHash !== undefined && { password_hash: input.passwordHash }),
      ...(input.isActive !== undefined && { is_active: input.isActive }),
      updated_at: input.now.toISOString(),
    })
    .where('id', '=', id)
    .execute();
}

/** Deletes the account; its PCNs stay with created_by cleared (ON DELETE SET NULL). */
export async function deleteUser(db: Db, id: string): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

/**
 * What each onboarding sort key orders by, then the id. A time that never happened sorts as
 * the oldest (whether it happened first, false before true on both engines), so newest first
 * puts it last.
 */
const ONBOARDING_SORT_COLUMNS: Record<OnboardingSortKey, readonly Expression<unknown>[]> = {
  name: [sql`lower(candidates.first_name)`, sql`lower(candidates.last_name)`],
  email: [sql`lower(candidates.email)`],
  role: [sql`candidates.role`],
  passwordSet: [sql`candidates.has_password`],
  lastEmailed: [sql`candidates.last_onboarding_email_at is not null`, sql`candidates.last_onboarding_email_at`],
  lastSignIn: [sql`candidates.last_sign_in_at is not null`, sql`candidates.last_sign_in_at`],
  created: [sql`candidates.created_at`],
};

/**
 * Every user but `exceptUserId`, with the last onboarding email that left (sent, or written to
 * the outbox folder) and the last sign-in: who still needs onboarding. Sorted as asked (newest
 * first unless told), and with `neverSignedIn` only those who have never signed in.
 */
export async function listOnboardingCandidates(
  db: Db,
  exceptUserId: string,
  query: OnboardingListQuery = {},
): Promise<OnboardingCandidate[]> {
  // A derived table, so the sort and the filter can name the computed times (PostgreSQL, unlike
  // SQLite, takes no output alias inside an ORDER BY or WHERE expression).
  const candidates = selectUsers(db)
    .select((eb) => [
      eb
        .selectFrom('emails')
        .whereRef('emails.user_id', '=', 'users.id')
        .where('emails.purpose', '=', 'onboarding')
        .where('emails.status', 'in', ['sent', 'written'])
        .select((inner) => inner.fn.max('emails.created_at').as('at'))
        .as('last_onboarding_email_at'),
      eb
        .selectFrom('activities')
        .whereRef('activities.user_id', '=', 'users.id')
        .where('activities.activity_type', '=', 'LOGIN')
        .select((inner) => inner.fn.max('activities.created_at').as('at'))
        .as('last_sign_in_at'),
    ])
    .where('users.id', '!=', exceptUserId)
    .as('candidates');
  const { sort, order } = resolveSort(query.sort, query.order, DEFAULT_SORTS.onboarding);
  const rows = await orderedBy(db.selectFrom(candidates).selectAll(), {
    columns: [...ONBOARDING_SORT_COLUMNS[sort], sql`candidates.id`],
    direction: order,
  })
    .$if(query.neverSignedIn === true, (q) => q.where('candidates.last_sign_in_at', 'is', null))
    .execute();
  return rows.map((row) => ({
    ...mapUser(row),
    lastOnboardingEmailAt: row.last_onboarding_email_at ?? null,
    lastSignInAt: row.last_sign_in_at ?? null,
  }));
}

/** Every user the list's filters select, in its order, a page at a time. */
export async function* streamUsers(db: Db, filter: UserListFilter, batchSize = 500): AsyncGenerator<User> {
  for (let page = 1; ; page++) {
    const { users } = await listUsers(db, { ...filter, page, limit: batchSize });
    yield* users;
    if (users.length < batchSize) return;
  }
}
