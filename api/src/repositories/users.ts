import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { CarParkSummary, OnboardingCandidate, Role, User, UserListQuery } from '@parkpatrol/shared';
import type { Db } from '../db/database.ts';
import type { UsersTable } from '../db/schema.ts';

/** Every column but the hash: what leaves this module never carries a password hash. */
const USER_COLUMNS = ['id', 'email', 'first_name', 'last_name', 'role', 'is_active', 'created_at', 'updated_at'] as const;

type UserRow = Omit<Selectable<UsersTable>, 'password_hash'> & { has_password: number };

export function mapUser(row: UserRow, carParks?: CarParkSummary[]): User {
  const user: User = {
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    role: row.role as Role,
    isActive: row.is_active === 1,
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

/** The car parks assigned to each user, by user id, for list and profile answers. */
export async function findCarParkSummariesByUser(db: Db, userIds: string[]): Promise<Map<string, CarParkSummary[]>> {
  const byUser = new Map<string, CarParkSummary[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const rows = await db
    .selectFrom('car_park_users')
    .innerJoin('car_parks', 'car_parks.id', 'car_park_users.car_park_id')
    .select(['car_park_users.user_id', 'car_parks.id', 'car_parks.name'])
    .where('car_park_users.user_id', 'in', userIds)
    .orderBy('car_parks.name')
    .execute();
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

/** For sign-in only: the one place the hash is read, and it goes no further than the verifier. */
export async function findCredentialsByEmail(
  db: Db,
  email: string,
): Promise<{ id: string; passwordHash: string | null; isActive: boolean } | undefined> {
  const row = await db.selectFrom('users').select(['id', 'password_hash', 'is_active']).where('email', '=', email).executeTakeFirst();
  return row ? { id: row.id, passwordHash: row.password_hash, isActive: row.is_active === 1 } : undefined;
}

export async function findPasswordHash(db: Db, userId: string): Promise<string | null> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
  return row?.password_hash ?? null;
}

export async function setPasswordHash(db: Db, userId: string, input: { passwordHash: string; now: Date }): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: input.passwordHash, updated_at: input.now.toISOString() })
    .where('id', '=', userId)
    .execute();
}

/** LIKE with the user's text taken literally (used with ESCAPE '\'): % and _ match themselves. */
export function toLikePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}

export async function listUsers(db: Db, query: UserListQuery): Promise<{ users: User[]; total: number }> {
  let filtered = db.selectFrom('users');
  if (query.search) {
    const pattern = toLikePattern(query.search);
    filtered = filtered.where(
      sql<boolean>`(first_name || ' ' || last_name like ${pattern} escape '\\' or email like ${pattern} escape '\\')`,
    );
  }
  if (query.role) filtered = filtered.where('role', '=', query.role);
  if (query.isActive !== undefined) filtered = filtered.where('is_active', '=', query.isActive ? 1 : 0);

  const countRow = await filtered.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
  const rows = await filtered
    .select(USER_COLUMNS)
    .select((eb) => eb.case().when('password_hash', 'is not', null).then(1).else(0).end().as('has_password'))
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .execute();
  const carParks = await findCarParkSummariesByUser(db, rows.map((r) => r.id));
  return { users: rows.map((row) => mapUser(row, carParks.get(row.id) ?? [])), total: Number(countRow.total) };
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
      is_active: input.isActive ? 1 : 0,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return id;
}

export async function updateUser(
  db: Db,
  id: string,
  input: Partial<{ email: string; firstName: string; lastName: string; role: Role; passwordHash: string; isActive: boolean }> & { now: Date },
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      ...(input.email !== undefined && { email: input.email }),
      ...(input.firstName !== undefined && { first_name: input.firstName }),
      ...(input.lastName !== undefined && { last_name: input.lastName }),
      ...(input.role !== undefined && { role: input.role }),
      ...(input.passwordHash !== undefined && { password_hash: input.passwordHash }),
      ...(input.isActive !== undefined && { is_active: input.isActive ? 1 : 0 }),
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
 * Every user but `exceptUserId`, newest first, with the last onboarding email that left (sent, or
 * written to the outbox folder) and the last sign-in: who still needs onboarding.
 */
export async function listOnboardingCandidates(db: Db, exceptUserId: string): Promise<OnboardingCandidate[]> {
  const rows = await selectUsers(db)
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
    .orderBy('users.created_at', 'desc')
    .orderBy('users.id')
    .execute();
  return rows.map((row) => ({ ...mapUser(row), lastOnboardingEmailAt: row.last_onboarding_email_at ?? null, lastSignInAt: row.last_sign_in_at ?? null }));
}

/** Every user the list's filters select, in its order (newest first), a page at a time. */
export async function* streamUsers(db: Db, query: Omit<UserListQuery, 'page' | 'limit'>, batchSize = 500): AsyncGenerator<User> {
  for (let page = 1; ; page++) {
    const { users } = await listUsers(db, { ...query, page, limit: batchSize });
    yield* users;
    if (users.length < batchSize) return;
  }
}
