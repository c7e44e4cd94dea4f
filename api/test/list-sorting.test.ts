import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAR_PARK_SORT_KEYS,
  firstOrder,
  KEEPER_NOTICE_OPEN_STATUSES,
  ONBOARDING_SORT_KEYS,
  PCN_SORT_KEYS,
  SORT_ORDERS,
  USER_SORT_KEYS,
  type CarPark,
  type OnboardingCandidate,
  type Pcn,
  type PcnStatus,
  type SortOrder,
  type User,
} from '@parkpatrol/shared';
import { insertPcnsDirectly } from './fixtures.ts';
import { storeKeeperPostingDays } from '../src/repositories/keeper-posting-days.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

// The admin tables sort on the server over every row, and pages in any sort
// neither repeat nor skip a row. Each sort is checked against the same rows sorted here.

let t: TestApp;
let superAdmin: Session;
let officer: Session;

beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await t.signedInUser('SUPER_ADMIN', { firstName: 'Sue', lastName: 'Super' });
  officer = await t.signedInUser('USER', { firstName: 'Olive', lastName: 'Owner' });
});
afterAll(() => t.close());

type SortValue = string | number;

/**
 * Lower case as both engines fold for sorting: ASCII letters only (SQLite's lower(), and
 * PostgreSQL's under collation "C"), so 'Émile' keeps its capital and sorts after 'zed'.
 */
const foldCase = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * The order the server must produce: the columns, then the tie-breaker, all in one direction
 * (code-unit order for text, as SQLite's BINARY and PostgreSQL's "C"; never a locale's order,
 * which moves 'Émile' beside 'emma' and 'b_1' before 'b1' on a cluster made with en-US).
 */
function sortedBy<T>(rows: readonly T[], key: (row: T) => SortValue[], order: SortOrder): T[] {
  const sign = order === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < x.length; i++) {
      if (x[i]! < y[i]!) return -sign;
      if (x[i]! > y[i]!) return sign;
    }
    return 0;
  });
}

/** Every page of a list, concatenated: `limit` rows at a time. */
async function allPages<T>(path: string, field: string, limit: number): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const res = await t.request('GET', `${path}${path.includes('?') ? '&' : '?'}limit=${limit}&page=${page}`, { token: superAdmin.token });
    expect(res.status, res.text).toBe(200);
    rows.push(...(res.json.data[field] as T[]));
    if (page >= res.json.data.pagination.pages) return rows;
  }
}

function expectNoRepeats(ids: readonly string[]) {
  expect(new Set(ids).size).toBe(ids.length);
}

describe('GET /pcns?sort=&order=', () => {
  const sequenceOf = (pcn: Pcn) => Number(pcn.pcnNumber);
  const PCN_KEYS: Record<(typeof PCN_SORT_KEYS)[number], (pcn: Pcn) => SortValue> = {
    pcnNumber: sequenceOf,
    vehicleRegistration: (pcn) => pcn.vehicleRegistration,
    carPark: (pcn) => foldCase(pcn.carPark?.name ?? ''),
    offenceType: (pcn) => pcn.offenceType,
    officer: (pcn) => foldCase(pcn.createdBy ? `${pcn.createdBy.firstName} ${pcn.createdBy.lastName}` : ''),
    status: (pcn) => pcn.status,
    created: (pcn) => pcn.createdAt,
    deadline: (pcn) => pcn.keeperNotice.lastPostingDate ?? '9999-12-31',
  };
  let northId: string;

  beforeAll(async () => {
    // Two officers with the same name, and notices whose officer is gone: ties and blanks.
    const bob1 = await t.createUser({ firstName: 'Bob', lastName: 'Baker' });
    const bob2 = await t.createUser({ firstName: 'Bob', lastName: 'Baker' });
    northId = (await t.createCarPark({ name: 'North Lot' })).id;
    const parks = [northId, (await t.createCarPark({ name: 'North Lot' })).id, (await t.createCarPark({ name: 'Église Yard' })).id];
    const officers = [officer.id, bob1.id, bob2.id];
    const statuses: PcnStatus[] = ['SUBMITTED', 'UNDER_REVIEW', 'APPROVED', 'ISSUED', 'CANCELLED', 'SUBMITTED', 'PAID'];
    const offences = ['OTHER', 'PARKING_WITHOUT_PERMIT', 'PARKING_IN_FIRE_ROUTE'] as const;
    const base = Date.parse('2026-02-01T08:00:00.000Z');
    const made = await insertPcnsDirectly(t, 16, (i) => ({
      createdBy: officers[i % 3]!,
      carParkId: parks[(i * 2) % 3]!,
      vehicleRegistration: ['AB12CDE', 'ZX99YYY', 'MM55AAA'][i % 3]!,
      status: statuses[i % statuses.length],
      // Three notices to a minute, out of insertion order: created ties broken by number.
      createdAt: new Date(base + ((i * 5) % 6) * 60_000).toISOString(),
    }));
    for (const [i, { id }] of made.entries()) {
      await t.db
        .updateTable('pcns')
        .set({
          offence_type: offences[i % 3]!,
          // Some first sightings before their notice, so the deadline order is not the created order.
          observed_at: i % 4 === 0 ? new Date(base - i * 3_600_000).toISOString() : null,
          created_by: i % 7 === 6 ? null : officers[i % 3]!,
        })
        .where('id', '=', id)
        .execute();
    }
    // Moved under the API's feet: the stored posting day follows, as an edit through it would.
    await storeKeeperPostingDays(t.db, { pcnIds: made.map(({ id }) => id) });
  });

  it('sorts every page by each column, both ways, with the number breaking ties the same way', async () => {
    const everything = await allPages<Pcn>('/pcns?scope=all', 'pcns', 100);
    expect(everything).toHaveLength(16);
    for (const sort of PCN_SORT_KEYS) {
      const rows =
        sort === 'deadline'
          ? everything.filter((pcn) => (KEEPER_NOTICE_OPEN_STATUSES as readonly string[]).includes(pcn.status))
          : everything;
      for (const order of SORT_ORDERS) {
        const paged = (await allPages<Pcn>(`/pcns?scope=all&sort=${sort}&order=${order}`, 'pcns', 3)).map((pcn) => pcn.id);
        expectNoRepeats(paged);
        expect(paged, `${sort} ${order}`).toEqual(
          sortedBy(rows, (pcn) => [PCN_KEYS[sort](pcn), sequenceOf(pcn)], order).map((pcn) => pcn.id),
        );
      }
      // A column without an order starts the way a first click does.
      const unordered = (await allPages<Pcn>(`/pcns?scope=all&sort=${sort}`, 'pcns', 5)).map((pcn) => pcn.id);
      expect(unordered, sort).toEqual(
        (await allPages<Pcn>(`/pcns?scope=all&sort=${sort}&order=${firstOrder(sort)}`, 'pcns', 5)).map((pcn) => pcn.id),
      );
    }
  });

  it('sorts a filtered list the same way, and newest first when no sort is given', async () => {
    const everything = await allPages<Pcn>('/pcns?scope=all', 'pcns', 100);
    expect(everything.map((pcn) => pcn.id)).toEqual(
      sortedBy(everything, (pcn) => [pcn.createdAt, sequenceOf(pcn)], 'desc').map((pcn) => pcn.id),
    );
    const north = everything.filter((pcn) => pcn.carParkId === northId);
    const paged = await allPages<Pcn>(`/pcns?scope=all&carParkId=${northId}&sort=officer&order=desc`, 'pcns', 2);
    expect(paged.map((pcn) => pcn.id)).toEqual(
      sortedBy(north, (pcn) => [PCN_KEYS.officer(pcn), sequenceOf(pcn)], 'desc').map((pcn) => pcn.id),
    );
  });

  it('lets an officer sort My PCNs by any column but the deadline queue', async () => {
    const mine = await t.request('GET', '/pcns?sort=vehicleRegistration&order=desc&limit=100', { token: officer.token });
    expect(mine.status).toBe(200);
    const pcns = mine.json.data.pcns as Pcn[];
    expect(pcns.length).toBeGreaterThan(0);
    expect(pcns.every((pcn) => pcn.createdBy?.id === officer.id)).toBe(true);
    expect(pcns.map((pcn) => pcn.id)).toEqual(
      sortedBy(pcns, (pcn) => [pcn.vehicleRegistration, sequenceOf(pcn)], 'desc').map((pcn) => pcn.id),
    );
    expect((await t.request('GET', '/pcns?sort=deadline', { token: officer.token })).status).toBe(403);
  });

  it('refuses an unknown sort key or order with 400', async () => {
    for (const query of ['sort=colour', 'sort=created&order=up']) {
      const res = await t.request('GET', `/pcns?scope=all&${query}`, { token: superAdmin.token });
      expect(res.status, query).toBe(400);
      expect(res.json.code).toBe('VALIDATION_FAILED');
    }
  });
});

describe('GET /users?sort=&order=', () => {
  const USER_KEYS: Record<(typeof USER_SORT_KEYS)[number], (user: User) => SortValue[]> = {
    name: (user) => [foldCase(user.firstName), foldCase(user.lastName)],
    email: (user) => [foldCase(user.email)],
    role: (user) => [user.role],
    isActive: (user) => [user.isActive ? 1 : 0],
    created: (user) => [user.createdAt],
  };

  beforeAll(async () => {
    // Accents, apostrophes and underscores too: a locale's collation would order these otherwise.
    const firstNames = ['Ann', 'Émile', 'Ann', 'cal', 'emma', "O'Neil", 'Dee', 'Ann'];
    const lastNames = ['Zed', 'Young', 'Able', 'Young', 'Young', 'Oakes', 'Able', 'Moss'];
    const emails = ['q0', 'b_1', 'b1x', 'c_3', 'c3', 'k5', 'a_b6', 'ab7'];
    for (const [i, firstName] of firstNames.entries()) {
      const user = await t.createUser({
        firstName,
        lastName: lastNames[i]!,
        email: `${emails[i]}@sort.example`,
        role: i % 3 === 0 ? 'ADMIN' : 'USER',
        isActive: i % 4 !== 1,
        password: null,
      });
      // Accounts made in the same second tie on their created time.
      await t.db
        .updateTable('users')
        .set({ created_at: `2026-01-0${1 + (i % 3)}T09:00:00.000Z` })
        .where('id', '=', user.id)
        .execute();
    }
  });

  it('sorts every page by each column, both ways, with the id breaking ties the same way', async () => {
    const everything = await allPages<User>('/users?search=sort.example', 'users', 100);
    expect(everything).toHaveLength(8);
    for (const sort of USER_SORT_KEYS) {
      for (const order of SORT_ORDERS) {
        const paged = (await allPages<User>(`/users?search=sort.example&sort=${sort}&order=${order}`, 'users', 3)).map((user) => user.id);
        expectNoRepeats(paged);
        expect(paged, `${sort} ${order}`).toEqual(
          sortedBy(everything, (user) => [...USER_KEYS[sort](user), user.id], order).map((user) => user.id),
        );
      }
    }
    const unsorted = (await allPages<User>('/users?search=sort.example', 'users', 3)).map((user) => user.id);
    expect(unsorted).toEqual(sortedBy(everything, (user) => [user.createdAt, user.id], 'desc').map((user) => user.id));
  });

  it('exports the users in the list’s sort', async () => {
    const listed = await allPages<User>('/users?search=sort.example&sort=name&order=desc', 'users', 3);
    const res = await t.request('GET', '/users/export.csv?search=sort.example&sort=name&order=desc', { token: superAdmin.token });
    expect(res.status).toBe(200);
    const rows = parse(res.text, { columns: true, bom: true }) as Array<Record<string, string>>;
    expect(rows.map((row) => row.Email)).toEqual(listed.map((user) => user.email));
  });
});

describe('GET /car-parks/all?sort=&order=', () => {
  const CAR_PARK_KEYS: Record<(typeof CAR_PARK_SORT_KEYS)[number], (carPark: CarPark) => SortValue> = {
    name: (carPark) => foldCase(carPark.name),
    siteCode: (carPark) => carPark.siteCode,
    postcode: (carPark) => carPark.postcode,
    isActive: (carPark) => (carPark.isActive ? 1 : 0),
  };

  beforeAll(async () => {
    const names = [
      'Sortpark Beta',
      'Sortpark Alpha',
      'Sortpark Beta',
      'Sortpark Émile',
      'Sortpark Alpha',
      'Sortpark Delta',
      "sortpark O'Neil",
    ];
    for (const [i, name] of names.entries()) {
      const { id } = await t.createCarPark({ name, siteCode: `SP${(i * 37) % 100}`, isActive: i % 3 !== 2 });
      await t.db
        .updateTable('car_parks')
        .set({ postcode: ['LS1 1AA', 'AB1 2CD', 'M1 1AE'][i % 3]! })
        .where('id', '=', id)
        .execute();
    }
  });

  it('sorts every page by each column, both ways, with the id breaking ties the same way', async () => {
    const everything = await allPages<CarPark>('/car-parks/all?search=Sortpark', 'carParks', 100);
    expect(everything).toHaveLength(7);
    for (const sort of CAR_PARK_SORT_KEYS) {
      for (const order of SORT_ORDERS) {
        const paged = (await allPages<CarPark>(`/car-parks/all?search=Sortpark&sort=${sort}&order=${order}`, 'carParks', 2)).map(
          (carPark) => carPark.id,
        );
        expectNoRepeats(paged);
        expect(paged, `${sort} ${order}`).toEqual(
          sortedBy(everything, (carPark) => [CAR_PARK_KEYS[sort](carPark), carPark.id], order).map((carPark) => carPark.id),
        );
      }
    }
    const unsorted = (await allPages<CarPark>('/car-parks/all?search=Sortpark', 'carParks', 2)).map((carPark) => carPark.id);
    expect(unsorted).toEqual(sortedBy(everything, (carPark) => [foldCase(carPark.name), carPark.id], 'asc').map((carPark) => carPark.id));
  });
});

describe('GET /onboarding/users?sort=&order=&neverSignedIn=', () => {
  const ONBOARDING_KEYS: Record<(typeof ONBOARDING_SORT_KEYS)[number], (user: OnboardingCandidate) => SortValue[]> = {
    name: (user) => [foldCase(user.firstName), foldCase(user.lastName)],
    email: (user) => [foldCase(user.email)],
    role: (user) => [user.role],
    passwordSet: (user) => [user.hasPassword ? 1 : 0],
    // Never is the oldest: first oldest first, last newest first.
    lastEmailed: (user) => [user.lastOnboardingEmailAt ?? ''],
    lastSignIn: (user) => [user.lastSignInAt ?? ''],
    created: (user) => [user.createdAt],
  };
  let admin: Session;

  beforeAll(async () => {
    admin = await t.signedInUser('ADMIN', { firstName: 'Asker', lastName: 'Admin' });
    const users = await t.db.selectFrom('users').select('id').where('email', 'like', '%@sort.example').orderBy('email').execute();
    for (const [i, { id }] of users.entries()) {
      // Some emailed (twice, or only by a send that failed, which does not count), some signed in, with ties.
      if (i % 3 !== 2) await insertEmail(id, `2026-03-0${1 + (i % 2)}T10:00:00.000Z`, 'sent');
      if (i % 3 === 0) await insertEmail(id, '2026-03-05T10:00:00.000Z', 'written');
      if (i % 3 === 2) await insertEmail(id, '2026-03-09T10:00:00.000Z', 'failed');
      if (i % 2 === 0) await insertSignIn(id, `2026-03-1${i % 3}T10:00:00.000Z`);
    }
  });

  async function insertEmail(userId: string, at: string, status: 'sent' | 'written' | 'failed') {
    await t.db
      .insertInto('emails')
      .values({
        id: randomUUID(),
        to_address: 'x@sort.example',
        subject: 'Welcome',
        purpose: 'onboarding',
        user_id: userId,
        status,
        error: null,
        location: null,
        created_at: at,
        sent_at: null,
      })
      .execute();
  }
  async function insertSignIn(userId: string, at: string) {
    await t.db
      .insertInto('activities')
      .values({ id: randomUUID(), user_id: userId, activity_type: 'LOGIN', description: null, pcn_id: null, created_at: at })
      .execute();
  }

  async function candidates(query: string): Promise<OnboardingCandidate[]> {
    const res = await t.request('GET', `/onboarding/users?${query}`, { token: admin.token });
    expect(res.status, res.text).toBe(200);
    return res.json.data.users as OnboardingCandidate[];
  }

  it('sorts by each column, both ways, never-happened times as the oldest, with the id breaking ties', async () => {
    const everything = await candidates('');
    expect(everything.map((user) => user.id)).not.toContain(admin.id);
    expect(everything.some((user) => user.lastOnboardingEmailAt === null)).toBe(true);
    expect(everything.some((user) => user.lastSignInAt === null)).toBe(true);
    expect(everything.map((user) => user.id)).toEqual(
      sortedBy(everything, (user) => [user.createdAt, user.id], 'desc').map((user) => user.id),
    );
    for (const sort of ONBOARDING_SORT_KEYS) {
      for (const order of SORT_ORDERS) {
        const listed = (await candidates(`sort=${sort}&order=${order}`)).map((user) => user.id);
        expect(listed, `${sort} ${order}`).toEqual(
          sortedBy(everything, (user) => [...ONBOARDING_KEYS[sort](user), user.id], order).map((user) => user.id),
        );
      }
    }
  });

  it('keeps only those who never signed in when asked, still sorted', async () => {
    const everything = await candidates('');
    const never = everything.filter((user) => user.lastSignInAt === null);
    expect(never.length).toBeGreaterThan(0);
    expect(never.length).toBeLessThan(everything.length);
    const listed = await candidates('neverSignedIn=true&sort=name&order=asc');
    expect(listed.map((user) => user.id)).toEqual(
      sortedBy(never, (user) => [...ONBOARDING_KEYS.name(user), user.id], 'asc').map((user) => user.id),
    );
    expect((await candidates('neverSignedIn=false')).map((user) => user.id)).toEqual(everything.map((user) => user.id));
    expect((await t.request('GET', '/onboarding/users?sort=lastSeen', { token: admin.token })).status).toBe(400);
  });
});
