import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MESSAGES, SUCCESS_MESSAGES, VALIDATION_MESSAGES } from '@parkpatrol/shared';
import { createTestApp, type TestApp } from './test-app.ts';

type Actor = Awaited<ReturnType<TestApp['signedInUser']>>;

let t: TestApp;
let superAdmin: Actor;
let admin: Actor;
let officer: Actor;

beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await t.signedInUser('SUPER_ADMIN', { firstName: 'Ada', lastName: 'Admin' });
  admin = await t.signedInUser('ADMIN', { firstName: 'Adam', lastName: 'Manager' });
  officer = await t.signedInUser('USER', { firstName: 'Olivia', lastName: 'Officer' });
});
afterAll(() => t.close());

function expectNoSecrets(text: string) {
  // Case-sensitive on purpose: the hasPassword flag is allowed, a password field is not.
  expect(text).not.toContain('password');
  expect(text).not.toContain('$argon2');
  expect(text).not.toContain('refreshToken');
}

/** A PCN row filed by `userId`, so deleting that user has something to keep. */
async function insertPcnBy(userId: string, carParkId: string): Promise<string> {
  const id = randomUUID();
  const stamp = new Date().toISOString();
  const sequence = Math.floor(Math.random() * 1e9);
  await t.db
    .insertInto('pcns')
    .values({
      id,
      sequence,
      pcn_number: String(sequence).padStart(8, '0'),
      vehicle_registration: 'AB12CDE',
      car_park_id: carParkId,
      offence_type: 'OTHER',
      description: '',
      location: 'Bay 4',
      status: 'SUBMITTED',
      admin_notes: null,
      observed_at: null,
      created_by: userId,
      idempotency_key: null,
      request_hash: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
  return id;
}

describe('GET /users/profile', () => {
  it('refuses anonymous callers with 401', async () => {
    const res = await t.request('GET', '/users/profile');
    expect(res.status).toBe(401);
    expect(res.json).toMatchObject({ code: 'UNAUTHENTICATED', message: SERVER_MESSAGES.notSignedIn });
  });

  it('answers the signed-in user with assigned car parks and hasPassword, without secrets', async () => {
    const carPark = await t.createCarPark({ name: 'Profile Park', assignTo: [officer.id] });
    const res = await t.request('GET', '/users/profile', { token: officer.token });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({
      id: officer.id,
      firstName: 'Olivia',
      lastName: 'Officer',
      email: officer.email,
      role: 'USER',
      isActive: true,
      hasPassword: true,
      carParks: expect.arrayContaining([{ id: carPark.id, name: 'Profile Park' }]),
    });
    expectNoSecrets(res.text);
  });

  it('lists the car parks in one read exactly as an admin sees them on the user: all of them, by name, none for a new user', async () => {
    // The profile reads them with the session; Manage Users' list reads them on their own.
    const me = await t.signedInUser('USER');
    expect((await t.request('GET', '/users/profile', { token: me.token })).json.data.carParks).toEqual([]);
    for (const [name, isActive] of [
      ['Zeta Yard', true],
      ['alpha lane', true],
      ['Mid Street', false],
      ['Alpha Lane', true],
    ] as const) {
      await t.createCarPark({ name, isActive, assignTo: [me.id] });
    }
    const profile = await t.request('GET', '/users/profile', { token: me.token });
    const listed = await t.request('GET', `/users?search=${encodeURIComponent(me.email)}`, { token: admin.token });
    const asAdminSees = (listed.json.data.users as Array<{ id: string }>).find((user) => user.id === me.id);
    expect(profile.json.data.carParks).toHaveLength(4);
    expect(profile.json.data).toEqual(asAdminSees);
  });

  it('refuses a tampered token and a deactivated user', async () => {
    expect((await t.request('GET', '/users/profile', { token: `${officer.token}x` })).status).toBe(401);
    const gone = await t.signedInUser('USER');
    await t.db.updateTable('users').set({ is_active: false }).where('id', '=', gone.id).execute();
    expect((await t.request('GET', '/users/profile', { token: gone.token })).status).toBe(401);
  });
});

describe('PUT /users/profile', () => {
  it('changes first and last name', async () => {
    const me = await t.signedInUser('USER');
    const res = await t.request('PUT', '/users/profile', { token: me.token, json: { firstName: ' Priya ', lastName: 'Patel' } });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ firstName: 'Priya', lastName: 'Patel' });
  });

  it('changes the password only with the right current password', async () => {
    const me = await t.signedInUser('USER');
    const missing = await t.request('PUT', '/users/profile', { token: me.token, json: { newPassword: 'new-secret' } });
    expect(missing.status).toBe(400);
    expect(missing.json.details).toEqual({ currentPassword: VALIDATION_MESSAGES.currentPasswordRequired });

    const wrong = await t.request('PUT', '/users/profile', {
      token: me.token,
      json: { currentPassword: 'nope', newPassword: 'new-secret' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toBe(SERVER_MESSAGES.wrongCurrentPassword);

    const right = await t.request('PUT', '/users/profile', {
      token: me.token,
      json: { currentPassword: me.password, newPassword: 'new-secret' },
    });
    expect(right.status).toBe(200);
    expectNoSecrets(right.text);
    await t.login(me.email, 'new-secret');
    expect((await t.request('POST', '/auth/login', { json: { email: me.email, password: me.password } })).status).toBe(401);
  });

  it('refuses bad input with 400: an empty name, a short password, wrong types, malformed JSON', async () => {
    const empty = await t.request('PUT', '/users/profile', { token: officer.token, json: { firstName: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.json.details).toEqual({ firstName: VALIDATION_MESSAGES.firstNameRequired });
    const short = await t.request('PUT', '/users/profile', {
      token: officer.token,
      json: { currentPassword: officer.password, newPassword: '123' },
    });
    expect(short.json.details).toEqual({ newPassword: VALIDATION_MESSAGES.passwordTooShort });
    expect((await t.request('PUT', '/users/profile', { token: officer.token, json: { lastName: 7 } })).status).toBe(400);
    const malformed = await t.request('PUT', '/users/profile', {
      token: officer.token,
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    const wrongType = await t.request('PUT', '/users/profile', {
      token: officer.token,
      body: 'firstName=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(wrongType.status).toBe(415);
  });
});

describe('GET /users', () => {
  it('answers 401 to anonymous callers and 403 to a USER', async () => {
    expect((await t.request('GET', '/users')).status).toBe(401);
    const res = await t.request('GET', '/users', { token: officer.token });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(SERVER_MESSAGES.forbidden);
  });

  it('lists users for ADMIN and SUPER_ADMIN with pagination and car parks, without secrets', async () => {
    for (const actor of [admin, superAdmin]) {
      const res = await t.request('GET', '/users?page=1&limit=2', { token: actor.token });
      expect(res.status).toBe(200);
      expect(res.json.data.users).toHaveLength(2);
      expect(res.json.data.pagination).toMatchObject({ page: 1, limit: 2, total: expect.any(Number) });
      const { total, pages } = res.json.data.pagination;
      expect(pages).toBe(Math.ceil(total / 2));
      for (const user of res.json.data.users) expect(Array.isArray(user.carParks)).toBe(true);
      expectNoSecrets(res.text);
    }
  });

  it('defaults to page 1 of 10', async () => {
    const res = await t.request('GET', '/users', { token: admin.token });
    expect(res.json.data.pagination).toMatchObject({ page: 1, limit: 10 });
  });

  it('searches by full name or email, literally and case-insensitively', async () => {
    const zed = await t.createUser({ firstName: 'Zed', lastName: 'Zebedee', email: 'zed.z@example.com' });
    const byName = await t.request('GET', `/users?search=${encodeURIComponent('zed zeb')}`, { token: admin.token });
    expect(byName.json.data.users.map((u: { id: string }) => u.id)).toEqual([zed.id]);
    const byEmail = await t.request('GET', '/users?search=ZED.Z@', { token: admin.token });
    expect(byEmail.json.data.users.map((u: { id: string }) => u.id)).toEqual([zed.id]);
    const wildcard = await t.request('GET', '/users?search=%25', { token: admin.token });
    expect(wildcard.json.data.users).toEqual([]);
  });

  it('filters by role and by active flag', async () => {
    const sleeper = await t.createUser({ isActive: false, firstName: 'Sleepy' });
    const admins = await t.request('GET', '/users?role=ADMIN&limit=100', { token: admin.token });
    expect(admins.json.data.users.every((u: { role: string }) => u.role === 'ADMIN')).toBe(true);
    expect(admins.json.data.users.map((u: { id: string }) => u.id)).toContain(admin.id);
    const inactive = await t.request('GET', '/users?isActive=false&limit=100', { token: admin.token });
    expect(inactive.json.data.users.map((u: { id: string }) => u.id)).toContain(sleeper.id);
    expect(inactive.json.data.users.every((u: { isActive: boolean }) => !u.isActive)).toBe(true);
  });

  it('refuses a bad query with 400', async () => {
    expect((await t.request('GET', '/users?limit=1000', { token: admin.token })).status).toBe(400);
    expect((await t.request('GET', '/users?page=0', { token: admin.token })).status).toBe(400);
    expect((await t.request('GET', '/users?role=KING', { token: admin.token })).status).toBe(400);
    expect((await t.request('GET', '/users?isActive=maybe', { token: admin.token })).status).toBe(400);
  });
});

describe('POST /users', () => {
  const newUser = (overrides: Record<string, unknown> = {}) => ({
    firstName: 'New',
    lastName: 'Person',
    email: `new-${randomUUID().slice(0, 8)}@example.com`,
    ...overrides,
  });

  it('answers 401 to anonymous callers and 403 to a USER', async () => {
    expect((await t.request('POST', '/users', { json: newUser() })).status).toBe(401);
    expect((await t.request('POST', '/users', { token: officer.token, json: newUser() })).status).toBe(403);
  });

  it('lets an ADMIN create a USER with a password, who can then sign in', async () => {
    const input = newUser({ email: 'Mixed.Case@Example.com', password: 'first-pass' });
    const res = await t.request('POST', '/users', { token: admin.token, json: input });
    expect(res.status).toBe(201);
    expect(res.json.data).toMatchObject({ email: 'mixed.case@example.com', role: 'USER', isActive: true, hasPassword: true, carParks: [] });
    expectNoSecrets(res.text);
    await t.login('mixed.case@example.com', 'first-pass');
  });

  it('creates a user without a password, who cannot sign in until they set one', async () => {
    const input = newUser();
    const res = await t.request('POST', '/users', { token: admin.token, json: input });
    expect(res.status).toBe(201);
    expect(res.json.data.hasPassword).toBe(false);
    expect((await t.request('POST', '/auth/login', { json: { email: input.email, password: 'anything1' } })).status).toBe(401);
  });

  it('assigns the given car parks and refuses unknown ones', async () => {
    const carPark = await t.createCarPark({ name: 'Assigned On Create' });
    const res = await t.request('POST', '/users', { token: admin.token, json: newUser({ carParkIds: [carPark.id] }) });
    expect(res.status).toBe(201);
    expect(res.json.data.carParks).toEqual([{ id: carPark.id, name: 'Assigned On Create' }]);

    const unknown = await t.request('POST', '/users', { token: admin.token, json: newUser({ carParkIds: ['missing'] }) });
    expect(unknown.status).toBe(400);
    expect(unknown.json.message).toBe(SERVER_MESSAGES.carParkNotFound);
  });

  it('lets only a SUPER_ADMIN create ADMIN and SUPER_ADMIN accounts', async () => {
    for (const role of ['ADMIN', 'SUPER_ADMIN']) {
      const refused = await t.request('POST', '/users', { token: admin.token, json: newUser({ role }) });
      expect(refused.status).toBe(403);
      expect(refused.json.message).toBe(SERVER_MESSAGES.cannotManageRole);
      const made = await t.request('POST', '/users', { token: superAdmin.token, json: newUser({ role }) });
      expect(made.status).toBe(201);
      expect(made.json.data.role).toBe(role);
    }
  });

  it('refuses a taken email with 409, whatever its case', async () => {
    const res = await t.request('POST', '/users', { token: admin.token, json: newUser({ email: officer.email.toUpperCase() }) });
    expect(res.status).toBe(409);
    expect(res.json).toMatchObject({ code: 'CONFLICT', message: SERVER_MESSAGES.emailTaken });
  });

  it('refuses bad input with 400 and field details', async () => {
    const res = await t.request('POST', '/users', { token: admin.token, json: { email: 'nope', role: 'KING', password: '1' } });
    expect(res.status).toBe(400);
    expect(res.json.details).toMatchObject({
      firstName: VALIDATION_MESSAGES.firstNameRequired,
      lastName: VALIDATION_MESSAGES.lastNameRequired,
      email: VALIDATION_MESSAGES.emailInvalid,
      password: VALIDATION_MESSAGES.passwordTooShort,
    });
    expect(res.json.details).toHaveProperty('role');
    expect((await t.request('POST', '/users', { token: admin.token, json: newUser({ isActive: 'yes' }) })).status).toBe(400);
  });
});

describe('PUT /users/{id}', () => {
  it('answers 401 to anonymous callers, 403 to a USER and 404 for an unknown id', async () => {
    const target = await t.createUser();
    expect((await t.request('PUT', `/users/${target.id}`, { json: { firstName: 'X' } })).status).toBe(401);
    expect((await t.request('PUT', `/users/${target.id}`, { token: officer.token, json: { firstName: 'X' } })).status).toBe(403);
    const unknown = await t.request('PUT', '/users/no-such-user', { token: admin.token, json: { firstName: 'X' } });
    expect(unknown.status).toBe(404);
    expect(unknown.json.message).toBe(SERVER_MESSAGES.userNotFound);
  });

  it('lets an ADMIN edit a USER', async () => {
    const target = await t.createUser();
    const res = await t.request('PUT', `/users/${target.id}`, {
      token: admin.token,
      json: { firstName: 'Renamed', email: 'renamed@example.com' },
    });
    expect(res.status).toBe(200);
    expect(res.json.data).toMatchObject({ id: target.id, firstName: 'Renamed', email: 'renamed@example.com' });
  });

  it('keeps an ADMIN away from admin accounts and from promoting anyone to admin', async () => {
    const otherAdmin = await t.createUser({ role: 'ADMIN' });
    const user = await t.createUser();
    const edit = await t.request('PUT', `/users/${otherAdmin.id}`, { token: admin.token, json: { role: 'USER' } });
    expect(edit.status).toBe(403);
    expect(edit.json.message).toBe(SERVER_MESSAGES.cannotManageRole);
    expect((await t.request('PUT', `/users/${superAdmin.id}`, { token: admin.token, json: { firstName: 'X' } })).status).toBe(403);
    expect((await t.request('PUT', `/users/${user.id}`, { token: admin.token, json: { role: 'ADMIN' } })).status).toBe(403);
  });

  it('lets a SUPER_ADMIN promote and demote other accounts', async () => {
    const user = await t.createUser();
    const promoted = await t.request('PUT', `/users/${user.id}`, { token: superAdmin.token, json: { role: 'ADMIN' } });
    expect(promoted.json.data.role).toBe('ADMIN');
    const demoted = await t.request('PUT', `/users/${user.id}`, { token: superAdmin.token, json: { role: 'USER' } });
    expect(demoted.json.data.role).toBe('USER');
  });

  it('refuses anyone deactivating or demoting themselves', async () => {
    for (const json of [{ isActive: false }, { role: 'ADMIN' }, { role: 'USER' }]) {
      const res = await t.request('PUT', `/users/${superAdmin.id}`, { token: superAdmin.token, json });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(SERVER_MESSAGES.cannotChangeSelf);
    }
    const renamed = await t.request('PUT', `/users/${superAdmin.id}`, { token: superAdmin.token, json: { firstName: 'Ada' } });
    expect(renamed.status).toBe(200);
  });

  it('signs a deactivated user out: access token refused, refresh token revoked', async () => {
    const target = await t.signedInUser('USER');
    const res = await t.request('PUT', `/users/${target.id}`, { token: admin.token, json: { isActive: false } });
    expect(res.status).toBe(200);
    expect(res.json.data.isActive).toBe(false);
    expect((await t.request('GET', '/users/profile', { token: target.token })).status).toBe(401);
    await t.request('PUT', `/users/${target.id}`, { token: admin.token, json: { isActive: true } });
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: target.refreshToken } })).status).toBe(401);
  });

  it('refuses an email another account has with 409', async () => {
    const target = await t.createUser();
    const res = await t.request('PUT', `/users/${target.id}`, { token: admin.token, json: { email: officer.email } });
    expect(res.status).toBe(409);
  });

  it('refuses bad input with 400', async () => {
    const target = await t.createUser();
    expect((await t.request('PUT', `/users/${target.id}`, { token: admin.token, json: { isActive: 'no' } })).status).toBe(400);
    expect((await t.request('PUT', `/users/${target.id}`, { token: admin.token, json: { email: 'bad' } })).status).toBe(400);
    const malformed = await t.request('PUT', `/users/${target.id}`, {
      token: admin.token,
      body: '{"a"',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });
});

describe('DELETE /users/{id}', () => {
  it('answers 401 to anonymous callers, 403 to a USER and 404 for an unknown id', async () => {
    const target = await t.createUser();
    expect((await t.request('DELETE', `/users/${target.id}`)).status).toBe(401);
    expect((await t.request('DELETE', `/users/${target.id}`, { token: officer.token })).status).toBe(403);
    expect((await t.request('DELETE', '/users/no-such-user', { token: admin.token })).status).toBe(404);
  });

  it('lets an ADMIN delete a USER, who then cannot sign in', async () => {
    const target = await t.signedInUser('USER');
    const res = await t.request('DELETE', `/users/${target.id}`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ success: true, data: { id: target.id }, message: SUCCESS_MESSAGES.userDeleted });
    expect((await t.request('PUT', `/users/${target.id}`, { token: admin.token, json: { firstName: 'X' } })).status).toBe(404);
    expect((await t.request('POST', '/auth/login', { json: { email: target.email, password: target.password } })).status).toBe(401);
    expect((await t.request('POST', '/auth/refresh', { json: { refreshToken: target.refreshToken } })).status).toBe(401);
  });

  it('keeps the PCNs of a deleted user, with no author', async () => {
    const target = await t.createUser();
    const carPark = await t.createCarPark({ assignTo: [target.id] });
    const pcnId = await insertPcnBy(target.id, carPark.id);
    expect((await t.request('DELETE', `/users/${target.id}`, { token: admin.token })).status).toBe(200);
    const pcn = await t.db.selectFrom('pcns').select('created_by').where('id', '=', pcnId).executeTakeFirstOrThrow();
    expect(pcn.created_by).toBeNull();
  });

  it('lets only a SUPER_ADMIN delete admin accounts', async () => {
    const otherAdmin = await t.createUser({ role: 'ADMIN' });
    const refused = await t.request('DELETE', `/users/${otherAdmin.id}`, { token: admin.token });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe(SERVER_MESSAGES.cannotManageRole);
    expect((await t.request('DELETE', `/users/${otherAdmin.id}`, { token: superAdmin.token })).status).toBe(200);
  });

  it('refuses anyone deleting themselves', async () => {
    for (const actor of [admin, superAdmin]) {
      const res = await t.request('DELETE', `/users/${actor.id}`, { token: actor.token });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe(SERVER_MESSAGES.cannotChangeSelf);
    }
  });
});
