import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER, ukDate, type SentDocumentListResponse } from '@parkpatrol/shared';
import { LETTER_KEEPER, letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { hireFirmGivenNotice, hirerInput, NAMED_DRIVER, nameDriver } from './support/driver-and-hirer.ts';
import { appealForm, chargeToken, enterAppeal, enteredAppealForm, VALID_APPEAL } from './support/appeals.ts';
import { issueOneTimeToken, ACCESS_LINK_TTL_MS, PASSWORD_RESET_TTL_MS } from '../src/auth/one-time-tokens.ts';
import { issueRefreshToken } from '../src/auth/refresh-tokens.ts';
import { createPcnViaApi, jpegUpload, makeJpeg, pcnForm, validOperatorTerms, validPcnFields } from './fixtures.ts';
import { logoForm, setOperatorLogo } from './support/operator-logo.ts';
import { createActor, createOwnedPcn, uniqueSuffix, type Actor, type ActorName, type World } from './support/world.ts';

/**
 * THE table of the API: every route the app registers, how to build a valid
 * request for it, and what each caller gets. The authorisation matrix runs one case per cell,
 * the bad-input suite mutates these valid requests, and the security suite checks the headers
 * of every answer. A route missing here fails the matrix.
 *
 * `prepare` builds fresh resources for each case (so a DELETE in one cell cannot change the
 * next) and is given the USER who owns them: the shared owner, or a fresh one when
 * `needsFreshOwner` (the owner's own account is the resource, and admins delete or email it).
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type PreparedRequest = {
  /** Under /api, with the query string if any. */
  path: string;
  json?: unknown;
  form?: FormData;
  headers?: Record<string, string>;
};

export type BodyKind = 'none' | 'json' | 'multipart';

export type EndpointCase = {
  method: HttpMethod;
  /** The path template exactly as Hono registers it, under /api. */
  route: string;
  /** Tells apart rows of one route that test different rules. */
  variant?: string;
  body: BodyKind;
  needsFreshOwner?: boolean;
  prepare: (w: World, owner: Actor) => Promise<PreparedRequest>;
  expected: Record<ActorName, number>;
};

const everyone = (status: number): Record<ActorName, number> => ({
  anonymous: status,
  owner: status,
  otherUser: status,
  admin: status,
  superAdmin: status,
  landowner: status,
  otherLandowner: status,
});
/** Any signed-in account, landowners' too: their profile, their car parks, the heartbeat. */
const anyAccount = (status: number) => ({ ...everyone(status), anonymous: 401 });
/** Officers' and admins' routes: a landowner's session is refused them all (decision 0042). */
const signedIn = (status: number) => ({ ...anyAccount(status), landowner: 403, otherLandowner: 403 });
const adminsOnly = (status: number) => ({
  anonymous: 401,
  owner: 403,
  otherUser: 403,
  admin: status,
  superAdmin: status,
  landowner: 403,
  otherLandowner: 403,
});
/** Resources of one USER: other USERs get the same 404 as for a PCN that does not exist. */
const ownerOrAdmin = (status: number) => ({
  anonymous: 401,
  owner: status,
  otherUser: 404,
  admin: status,
  superAdmin: status,
  landowner: 403,
  otherLandowner: 403,
});
/**
 * A car park's own screens (its charges, report, permits): admins and the landowner assigned to
 * it; another landowner gets the 404 of a car park that does not exist; officers 403.
 */
export const carParkOwnersAndAdmins = (status: number): Record<ActorName, number> => ({
  anonymous: 401,
  owner: 403,
  otherUser: 403,
  admin: status,
  superAdmin: status,
  landowner: status,
  otherLandowner: 404,
});

/** A permit at the owner's car park, added by the admin, for the permit routes to read, change or end. */
async function permitAtOwnersCarPark(w: World): Promise<string> {
  const res = await w.t.request('POST', `/car-parks/${w.ownerCarParkId}/permits`, {
    token: w.admin.token,
    json: { vehicleRegistration: `PX${uniqueSuffix().slice(0, 5)}`, kind: 'CONTRACTOR', validUntil: '2099-12-31' },
  });
  if (res.status !== 201) throw new Error(`permit failed: ${res.status} ${res.text}`);
  return res.json.data.id as string;
}

/**
 * A client address of its own for a request the reset emails' limit per address counts (ten an
 * hour): seven callers each asking for a reset and a device link would otherwise pass it. It
 * counts where the app trusts X-Forwarded-For (the matrix's app does); elsewhere it is ignored.
 */
let addressCounter = 0;
function ownAddress(): Record<string, string> {
  addressCounter += 1;
  return { 'x-forwarded-for': `198.51.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}` };
}

/** A fresh car park with its visitor page open (code Guest2026): its address. */
async function visitorPageOf(w: World): Promise<string> {
  const { id } = await w.t.createCarPark();
  const siteCode = `visit-${uniqueSuffix()}`;
  await w.t.db.updateTable('car_parks').set({ visitor_site_code: siteCode, visitor_code: 'Guest2026' }).where('id', '=', id).execute();
  return siteCode;
}

/** One account with a password per app: signing in again and again is allowed, and argon2 is slow. */
const passwordUsers = new WeakMap<World, Promise<{ email: string; password: string }>>();
function passwordUserOf(w: World): Promise<{ email: string; password: string }> {
  let user = passwordUsers.get(w);
  if (!user) {
    const password = 'correct horse battery';
    user = w.t.createUser({ password }).then((created) => ({ email: created.email, password }));
    passwordUsers.set(w, user);
  }
  return user;
}

function pcnCreateForm(carParkId: string): FormData {
  return pcnForm({ ...validPcnFields(carParkId), images: [jpegUpload(11), jpegUpload(12), jpegUpload(13), jpegUpload(14)] });
}

export const ENDPOINTS: EndpointCase[] = [
  // ---- health ----
  { method: 'GET', route: '/health', body: 'none', prepare: async () => ({ path: '/health' }), expected: everyone(200) },

  // ---- auth: open to anyone, authorised by what the body carries ----
  {
    method: 'POST',
    route: '/auth/login',
    body: 'json',
    expected: everyone(200),
    prepare: async (w) => {
      const user = await passwordUserOf(w);
      return { path: '/auth/login', json: { email: user.email, password: user.password } };
    },
  },
  {
    method: 'POST',
    route: '/auth/refresh',
    body: 'json',
    expected: everyone(200),
    prepare: async (w) => {
      const user = await w.t.createUser({ password: null });
      return { path: '/auth/refresh', json: { refreshToken: await issueRefreshToken(w.t.db, { userId: user.id, now: w.t.deps.now() }) } };
    },
  },
  {
    method: 'POST',
    route: '/auth/logout',
    body: 'json',
    expected: everyone(200),
    prepare: async (w) => {
      const user = await w.t.createUser({ password: null });
      return { path: '/auth/logout', json: { refreshToken: await issueRefreshToken(w.t.db, { userId: user.id, now: w.t.deps.now() }) } };
    },
  },
  {
    method: 'POST',
    route: '/auth/forgot-password',
    body: 'json',
    expected: everyone(200),
    prepare: async (w) => ({
      path: '/auth/forgot-password',
      json: { email: (await w.t.createUser({ password: null })).email },
      headers: ownAddress(),
    }),
  },
  {
    method: 'POST',
    route: '/auth/device-link',
    body: 'json',
    expected: everyone(200),
    // An account with a password, so a link is really emailed (and its token looked for in every answer).
    prepare: async (w) => ({
      path: '/auth/device-link',
      json: { email: (await w.t.createUser({})).email },
      headers: ownAddress(),
    }),
  },
  {
    method: 'POST',
    route: '/auth/reset-password',
    body: 'json',
    expected: everyone(200),
    prepare: async (w) => {
      const user = await w.t.createUser({ password: null });
      const token = await issueOneTimeToken(w.t.db, {
        userId: user.id,
        purpose: 'password-reset',
        ttlMs: PASSWORD_RESET_TTL_MS,
        now: w.t.deps.now(),
      });
      return { path: '/auth/reset-password', json: { token, password: 'a-new-password-1' } };
    },
  },
  {
    method: 'POST',
    route: '/auth/reset-password/check',
    body: 'json',
    expected: everyone(200),
    prepare: async (w) => {
      const user = await w.t.createUser({ password: null });
      const token = await issueOneTimeToken(w.t.db, {
        userId: user.id,
        purpose: 'password-reset',
        ttlMs: PASSWORD_RESET_TTL_MS,
        now: w.t.deps.now(),
      });
      return { path: '/auth/reset-password/check', json: { token } };
    },
  },
  {
    method: 'POST',
    route: '/auth/access-link',
    body: 'json',
    expected: everyone(200),
    prepare: async (w) => {
      const user = await w.t.createUser({ password: null });
      const token = await issueOneTimeToken(w.t.db, {
        userId: user.id,
        purpose: 'access-link',
        ttlMs: ACCESS_LINK_TTL_MS,
        now: w.t.deps.now(),
      });
      return { path: '/auth/access-link', json: { token } };
    },
  },

  // ---- users ----
  {
    method: 'GET',
    route: '/users/export.csv',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/users/export.csv' }),
  },
  { method: 'GET', route: '/users/profile', body: 'none', prepare: async () => ({ path: '/users/profile' }), expected: anyAccount(200) },
  {
    method: 'PUT',
    route: '/users/profile',
    body: 'json',
    expected: anyAccount(200),
    prepare: async () => ({ path: '/users/profile', json: { firstName: 'Renamed' } }),
  },
  { method: 'GET', route: '/users', body: 'none', prepare: async () => ({ path: '/users?page=1&limit=5' }), expected: adminsOnly(200) },
  {
    method: 'GET',
    route: '/users/selection',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/users/selection?role=USER&sort=email&order=desc' }),
  },
  {
    method: 'POST',
    route: '/users/bulk-active',
    body: 'json',
    needsFreshOwner: true,
    expected: adminsOnly(200),
    prepare: async (_w, owner) => ({ path: '/users/bulk-active', json: { userIds: [owner.id], isActive: false } }),
  },
  {
    method: 'POST',
    route: '/users',
    variant: 'a USER account',
    body: 'json',
    expected: adminsOnly(201),
    prepare: async (w) => ({
      path: '/users',
      json: {
        firstName: 'New',
        lastName: 'Officer',
        email: `new-${uniqueSuffix()}@example.com`,
        role: 'USER',
        carParkIds: [w.ownerCarParkId],
      },
    }),
  },
  {
    method: 'POST',
    route: '/users',
    variant: 'an ADMIN account',
    body: 'json',
    expected: { anonymous: 401, owner: 403, otherUser: 403, admin: 403, superAdmin: 201, landowner: 403, otherLandowner: 403 },
    prepare: async () => ({
      path: '/users',
      json: { firstName: 'New', lastName: 'Admin', email: `admin-${uniqueSuffix()}@example.com`, role: 'ADMIN' },
    }),
  },
  {
    method: 'PUT',
    route: '/users/:id',
    variant: "the owner's own account",
    body: 'json',
    needsFreshOwner: true,
    expected: adminsOnly(200),
    prepare: async (_w, owner) => ({ path: `/users/${owner.id}`, json: { firstName: 'Changed' } }),
  },
  {
    method: 'PUT',
    route: '/users/:id',
    variant: 'an ADMIN account',
    body: 'json',
    expected: { anonymous: 401, owner: 403, otherUser: 403, admin: 403, superAdmin: 200, landowner: 403, otherLandowner: 403 },
    prepare: async (w) => ({ path: `/users/${(await createActor(w.t, 'ADMIN')).id}`, json: { lastName: 'Changed' } }),
  },
  {
    method: 'DELETE',
    route: '/users/:id',
    body: 'none',
    needsFreshOwner: true,
    expected: adminsOnly(200),
    prepare: async (_w, owner) => ({ path: `/users/${owner.id}` }),
  },

  // ---- car parks ----
  { method: 'GET', route: '/car-parks', body: 'none', prepare: async () => ({ path: '/car-parks' }), expected: anyAccount(200) },
  {
    method: 'GET',
    route: '/car-parks/all',
    body: 'none',
    prepare: async () => ({ path: '/car-parks/all?page=1&limit=5' }),
    expected: adminsOnly(200),
  },
  {
    method: 'POST',
    route: '/car-parks',
    body: 'json',
    expected: adminsOnly(201),
    prepare: async () => ({ path: '/car-parks', json: { name: 'New Site', siteCode: `N${uniqueSuffix()}` } }),
  },
  {
    method: 'PUT',
    route: '/car-parks/:id',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: `/car-parks/${(await w.t.createCarPark({ assignTo: [owner.id] })).id}`,
      json: { name: 'Renamed Site' },
    }),
  },
  {
    method: 'DELETE',
    route: '/car-parks/:id',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/car-parks/${(await w.t.createCarPark({ assignTo: [owner.id] })).id}` }),
  },
  {
    method: 'POST',
    route: '/car-parks/:id/assign-user',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/car-parks/${(await w.t.createCarPark()).id}/assign-user`, json: { userId: owner.id } }),
  },
  {
    method: 'DELETE',
    route: '/car-parks/:id/unassign-user',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: `/car-parks/${(await w.t.createCarPark({ assignTo: [owner.id] })).id}/unassign-user`,
      json: { userId: owner.id },
    }),
  },

  // ---- permits (decision 0041): admins for every car park, a landowner for their own; officers read them through the sync ----
  {
    method: 'GET',
    route: '/car-parks/:id/permits',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => {
      await permitAtOwnersCarPark(w);
      return { path: `/car-parks/${w.ownerCarParkId}/permits?status=all` };
    },
  },
  {
    method: 'POST',
    route: '/car-parks/:id/permits',
    body: 'json',
    expected: carParkOwnersAndAdmins(201),
    prepare: async (w) => ({
      path: `/car-parks/${w.ownerCarParkId}/permits`,
      json: { vehicleRegistration: `PM${uniqueSuffix().slice(0, 5)}`, kind: 'STAFF', validUntil: '2099-12-31', note: 'Reception' },
    }),
  },
  {
    method: 'POST',
    route: '/car-parks/:id/permits/import',
    body: 'json',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({
      path: `/car-parks/${w.ownerCarParkId}/permits/import`,
      json: { fileName: 'permits.csv', csv: `registration,kind,valid_until\nIM${uniqueSuffix().slice(0, 5)},RESIDENT,31/12/2099\n` },
    }),
  },
  {
    method: 'PUT',
    route: '/car-parks/:id/permits/:permitId',
    body: 'json',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({
      path: `/car-parks/${w.ownerCarParkId}/permits/${await permitAtOwnersCarPark(w)}`,
      json: { note: 'Blue car', validUntil: '2099-06-30' },
    }),
  },
  {
    method: 'DELETE',
    route: '/car-parks/:id/permits/:permitId',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({ path: `/car-parks/${w.ownerCarParkId}/permits/${await permitAtOwnersCarPark(w)}` }),
  },
  {
    // What an officer's phone keeps: every officer and admin has a list (their car parks'); a landowner files nothing.
    method: 'GET',
    route: '/permits/sync',
    body: 'none',
    expected: signedIn(200),
    prepare: async (w) => {
      await permitAtOwnersCarPark(w);
      return { path: `/permits/sync?since=${encodeURIComponent(new Date(w.t.deps.now().getTime() - 60_000).toISOString())}` };
    },
  },

  {
    method: 'GET',
    route: '/car-parks/:id/visitor',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({ path: `/car-parks/${w.ownerCarParkId}/visitor` }),
  },
  {
    method: 'PUT',
    route: '/car-parks/:id/visitor',
    body: 'json',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({
      path: `/car-parks/${w.ownerCarParkId}/visitor`,
      json: { siteCode: `visit-${uniqueSuffix()}`, visitorCode: 'Guest2026', dailyLimit: 40 },
    }),
  },
  {
    // The visitor page: no sign-in, the page's address is the key.
    method: 'GET',
    route: '/public/visit/:siteCode',
    body: 'none',
    expected: everyone(200),
    prepare: async (w) => ({ path: `/public/visit/${await visitorPageOf(w)}` }),
  },
  {
    method: 'POST',
    route: '/public/visit/:siteCode',
    body: 'json',
    expected: everyone(201),
    prepare: async (w) => ({
      path: `/public/visit/${await visitorPageOf(w)}`,
      json: { vehicleRegistration: `VP${uniqueSuffix().slice(0, 5)}`, visitorCode: 'Guest2026' },
    }),
  },

  // ---- the operator's terms ----
  {
    method: 'GET',
    route: '/settings/operator',
    body: 'none',
    prepare: async () => ({ path: '/settings/operator' }),
    expected: adminsOnly(200),
  },
  {
    method: 'PUT',
    route: '/settings/operator',
    body: 'json',
    // A new way to pay each time: the payment details are a Super Admin's to change.
    expected: { anonymous: 401, owner: 403, otherUser: 403, admin: 403, superAdmin: 200, landowner: 403, otherLandowner: 403 },
    prepare: async () => ({
      path: '/settings/operator',
      json: validOperatorTerms({ howToPay: `By bank transfer to sort code 12-34-56, account 1234${uniqueSuffix().slice(0, 4)}` }),
    }),
  },
  {
    method: 'PUT',
    route: '/settings/operator/logo',
    body: 'multipart',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/settings/operator/logo', form: logoForm(makeJpeg(3)) }),
  },
  {
    method: 'DELETE',
    route: '/settings/operator/logo',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/settings/operator/logo' }),
  },
  {
    method: 'GET',
    route: '/settings/notice-terms',
    body: 'none',
    prepare: async () => ({ path: '/settings/notice-terms' }),
    expected: signedIn(200),
  },

  // ---- the motorist's side: no sign-in ----
  {
    method: 'GET',
    route: '/public/charges/operator',
    body: 'none',
    expected: everyone(200),
    prepare: async () => ({ path: '/public/charges/operator' }),
  },
  {
    method: 'GET',
    route: '/public/charges/operator/logo/:file',
    body: 'none',
    expected: everyone(200),
    prepare: async (w) => ({ path: await setOperatorLogo(w.t, w.admin.token, makeJpeg(7)) }),
  },
  {
    method: 'POST',
    route: '/public/charges/lookup',
    body: 'json',
    expected: everyone(200),
    prepare: async (w, owner) => {
      const pcn = await createOwnedPcn(w, owner);
      return { path: '/public/charges/lookup', json: { reference: `PCN-${pcn.pcnNumber}`, registration: 'ab12 cde' } };
    },
  },
  {
    method: 'GET',
    route: '/public/charges/current',
    body: 'none',
    // The charge's own token, sent by the motorist; a staff token in its place is refused.
    expected: { anonymous: 200, owner: 401, otherUser: 401, admin: 401, superAdmin: 401, landowner: 401, otherLandowner: 401 },
    prepare: async (w, owner) => {
      const pcn = await createOwnedPcn(w, owner);
      const found = await w.t.request('POST', '/public/charges/lookup', {
        json: { reference: pcn.pcnNumber, registration: 'AB12CDE' },
      });
      return { path: '/public/charges/current', headers: { authorization: `Bearer ${found.json.data.accessToken as string}` } };
    },
  },

  {
    method: 'POST',
    route: '/public/charges/current/appeal',
    body: 'multipart',
    // The charge's own token, sent by the motorist; a staff token in its place is refused.
    expected: { anonymous: 202, owner: 401, otherUser: 401, admin: 401, superAdmin: 401, landowner: 401, otherLandowner: 401 },
    prepare: async (w, owner) => {
      const pcn = await appealableCharge(w, owner);
      return {
        path: '/public/charges/current/appeal',
        form: appealForm(),
        headers: { authorization: `Bearer ${chargeToken(w.t, pcn.id)}`, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      };
    },
  },
  {
    method: 'POST',
    route: '/public/appeals/confirm',
    body: 'json',
    // The emailed link's own token is the proof: whoever holds it confirms, signed in or not.
    expected: everyone(201),
    prepare: async (w, owner) => {
      const pcn = await appealableCharge(w, owner);
      const form = appealForm({ email: `confirm-${randomUUID()}@example.com` });
      const filed = await w.t.request('POST', '/public/charges/current/appeal', {
        body: form,
        headers: { authorization: `Bearer ${chargeToken(w.t, pcn.id)}`, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      });
      if (filed.status !== 202) throw new Error(`appeal not filed: ${filed.status} ${filed.text}`);
      const text = await w.t.latestMailText(String(form.get('email')), 'appeal-confirmation');
      const token = /confirm-appeal\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? '';
      return { path: '/public/appeals/confirm', json: { token } };
    },
  },
  {
    method: 'GET',
    route: '/public/charges/current/appeal/letter',
    body: 'none',
    expected: { anonymous: 200, owner: 401, otherUser: 401, admin: 401, superAdmin: 401, landowner: 401, otherLandowner: 401 },
    prepare: async (w, owner) => {
      const { token } = await decidedAppeal(w, owner);
      return { path: '/public/charges/current/appeal/letter', headers: { authorization: `Bearer ${token}` } };
    },
  },
  {
    method: 'POST',
    route: '/public/charges/current/appeal/withdraw',
    body: 'json',
    // The charge's own token and the email the appeal gave; a staff token in its place is refused.
    expected: { anonymous: 200, owner: 401, otherUser: 401, admin: 401, superAdmin: 401, landowner: 401, otherLandowner: 401 },
    prepare: async (w, owner) => {
      const { token } = await openAppeal(w, owner);
      return {
        path: '/public/charges/current/appeal/withdraw',
        headers: { authorization: `Bearer ${token}` },
        json: { email: VALID_APPEAL.email },
      };
    },
  },
  {
    method: 'POST',
    route: '/public/charges/current/checkout',
    body: 'none',
    // The charge's own token; this app has no card processor keys, so the motorist is told card payments are off.
    expected: { anonymous: 404, owner: 401, otherUser: 401, admin: 401, superAdmin: 401, landowner: 401, otherLandowner: 401 },
    prepare: async (w, owner) => {
      const pcn = await appealableCharge(w, owner);
      return { path: '/public/charges/current/checkout', headers: { authorization: `Bearer ${chargeToken(w.t, pcn.id)}` } };
    },
  },
  {
    method: 'POST',
    route: '/payments/stripe/webhook',
    body: 'json',
    // No sign-in: the card processor's signature is the gate (card-payments.test.ts); without its keys there is no webhook.
    expected: everyone(404),
    prepare: async () => ({ path: '/payments/stripe/webhook', json: { id: 'evt_unsigned', type: 'checkout.session.completed' } }),
  },

  // ---- appeals (admins only: the motorist's personal data) ----
  {
    method: 'GET',
    route: '/appeals',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/appeals?page=1&limit=10' }),
  },
  {
    method: 'GET',
    route: '/appeals/export.csv',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/appeals/export.csv' }),
  },
  {
    method: 'POST',
    route: '/appeals',
    body: 'multipart',
    expected: adminsOnly(201),
    prepare: async (w, owner) => {
      const pcn = await appealableCharge(w, owner);
      return {
        path: '/appeals',
        form: enteredAppealForm({ pcnId: pcn.id, receivedOn: ukDate(w.t.deps.now()) }),
        headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      };
    },
  },
  {
    method: 'GET',
    route: '/appeals/:id',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/appeals/${(await openAppeal(w, owner)).id}` }),
  },
  {
    method: 'POST',
    route: '/appeals/:id/decision',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: `/appeals/${(await openAppeal(w, owner)).id}/decision`,
      json: { outcome: 'REJECTED', reasons: 'The permit shown expired the day before.' },
    }),
  },
  {
    // The letter a decision would send: admins only, like the decision itself, and nothing is recorded.
    method: 'POST',
    route: '/appeals/:id/decision-preview',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: `/appeals/${(await openAppeal(w, owner)).id}/decision-preview`,
      json: { outcome: 'REJECTED', reasons: 'The permit shown expired the day before.' },
    }),
  },
  {
    method: 'POST',
    route: '/appeals/:id/consider',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/appeals/${(await lateAppeal(w, owner)).id}/consider` }),
  },
  {
    method: 'POST',
    route: '/appeals/:id/set-aside',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: `/appeals/${(await openAppeal(w, owner)).id}/set-aside`,
      json: { reason: 'Filed by someone other than the motorist, who has written to us.' },
    }),
  },
  {
    method: 'GET',
    route: '/appeals/:id/letter',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/appeals/${(await decidedAppeal(w, owner)).id}/letter` }),
  },
  {
    method: 'GET',
    route: '/appeals/:id/attachments/:attachmentId',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => {
      const { id } = await openAppeal(w, owner);
      const appeal = await w.t.request('GET', `/appeals/${id}`, { token: w.admin.token });
      return { path: `/appeals/${id}/attachments/${appeal.json.data.attachments[0].id as string}` };
    },
  },

  {
    method: 'POST',
    route: '/pcns/:id/payments',
    body: 'json',
    expected: adminsOnly(200),
    // Paid today, on the day the notice was issued: one key per attempt.
    prepare: async (w, owner) => ({
      path: `/pcns/${(await createOwnedPcn(w, owner)).id}/payments`,
      json: { amountPence: 2000, paidOn: ukDate(w.t.deps.now()), method: 'CARD', reference: 'TXN-1' },
      headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    }),
  },
  {
    method: 'POST',
    route: '/pcns/:id/refunds',
    body: 'json',
    expected: adminsOnly(200),
    // A payment an admin recorded, part of it refunded by hand: one key per attempt.
    prepare: async (w, owner) => {
      const pcn = await createOwnedPcn(w, owner);
      const paid = await w.t.request('POST', `/pcns/${pcn.id}/payments`, {
        token: w.admin.token,
        json: { amountPence: 2000, paidOn: ukDate(w.t.deps.now()), method: 'CASH', reference: '' },
        headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      });
      return {
        path: `/pcns/${pcn.id}/refunds`,
        json: { paymentId: paid.json.data.payments.payments[0].id as string, amountPence: 500, reason: 'Goodwill' },
        headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      };
    },
  },

  // ---- keepers and notices to keeper (admins only: personal data) ----
  {
    method: 'PUT',
    route: '/pcns/:id/keeper',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/pcns/${(await createOwnedPcn(w, owner)).id}/keeper`, json: LETTER_KEEPER }),
  },
  {
    method: 'PUT',
    route: '/pcns/:id/hirer',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => {
      const pcn = await readyForLetter(w, owner);
      await hireFirmGivenNotice(w.t, w.admin.token, pcn.id);
      return { path: `/pcns/${pcn.id}/hirer`, json: hirerInput(ukDate(w.t.deps.now())) };
    },
  },
  {
    method: 'PUT',
    route: '/pcns/:id/driver',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/pcns/${(await readyForLetter(w, owner)).id}/driver`, json: NAMED_DRIVER }),
  },
  {
    method: 'POST',
    route: '/pcns/:id/letters',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => {
      const pcn = await readyForLetter(w, owner);
      await nameDriver(w.t, w.admin.token, pcn.id);
      return { path: `/pcns/${pcn.id}/letters`, json: { kind: 'NOTICE_TO_NAMED_DRIVER' } };
    },
  },
  {
    method: 'POST',
    route: '/pcns/:id/letters/posted',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => {
      const pcn = await readyForLetter(w, owner);
      await nameDriver(w.t, w.admin.token, pcn.id);
      const made = await w.t.request('POST', `/pcns/${pcn.id}/letters`, { token: w.admin.token, json: { kind: 'NOTICE_TO_NAMED_DRIVER' } });
      if (made.status !== 200) throw new Error(`letter not made: ${made.status}`);
      return { path: `/pcns/${pcn.id}/letters/posted`, json: { kind: 'NOTICE_TO_NAMED_DRIVER', postedOn: ukDate(w.t.deps.now()) } };
    },
  },
  {
    method: 'POST',
    route: '/keeper-replies',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async () => ({
      path: '/keeper-replies',
      json: { csv: 'reference,registration,no_keeper_reason\nPCN-99999999,AB12CDE,No record' },
    }),
  },
  {
    method: 'POST',
    route: '/keeper-notices/letters',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: '/keeper-notices/letters', json: { pcnIds: [(await readyForLetter(w, owner)).id] } }),
  },
  {
    method: 'POST',
    route: '/keeper-notices/batches',
    body: 'json',
    expected: adminsOnly(202),
    prepare: async (w, owner) => ({ path: '/keeper-notices/batches', json: { pcnIds: [(await readyForLetter(w, owner)).id] } }),
  },
  {
    method: 'GET',
    route: '/keeper-notices/batches',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/keeper-notices/batches' }),
  },
  {
    method: 'GET',
    route: '/keeper-notices/batches/:id',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/keeper-notices/batches/${await madeBatch(w, owner)}` }),
  },
  {
    method: 'GET',
    route: '/keeper-notices/batches/:id/file',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/keeper-notices/batches/${await madeBatch(w, owner)}/file` }),
  },
  {
    method: 'POST',
    route: '/keeper-notices/posted',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: '/keeper-notices/posted',
      json: { pcnIds: [(await withLetter(w, owner)).pcnId], postedOn: ukDate(w.t.deps.now()) },
    }),
  },
  {
    method: 'GET',
    route: '/collection-letters',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/collection-letters?kind=REMINDER' }),
  },
  {
    method: 'POST',
    route: '/collection-letters/letters',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: '/collection-letters/letters',
      json: { kind: 'REMINDER', pcnIds: [await reminderDue(w, owner)] },
    }),
  },
  {
    method: 'POST',
    route: '/collection-letters/posted',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => {
      const pcnId = await reminderDue(w, owner);
      const made = await w.t.request('POST', '/collection-letters/letters', {
        token: w.admin.token,
        json: { kind: 'REMINDER', pcnIds: [pcnId] },
      });
      if (made.status !== 200) throw new Error(`reminder not made: ${made.status} ${made.text}`);
      return { path: '/collection-letters/posted', json: { kind: 'REMINDER', pcnIds: [pcnId], postedOn: ukDate(w.t.deps.now()) } };
    },
  },
  {
    method: 'GET',
    route: '/debt-recovery/eligible',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/debt-recovery/eligible' }),
  },
  {
    method: 'GET',
    route: '/debt-recovery/exports',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/debt-recovery/exports' }),
  },
  {
    method: 'POST',
    route: '/debt-recovery/exports',
    body: 'json',
    expected: adminsOnly(202),
    prepare: async (w, owner) => ({ path: '/debt-recovery/exports', json: { pcnIds: [await pastLetterBeforeClaim(w, owner)] } }),
  },
  {
    method: 'GET',
    route: '/debt-recovery/exports/:id',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => {
      const handover = await w.t.request('GET', await handedOver(w, owner), { token: w.admin.token });
      return { path: `/debt-recovery/exports/${handover.json.data.batch.id as string}` };
    },
  },
  {
    method: 'GET',
    route: '/debt-recovery/handovers',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/debt-recovery/handovers' }),
  },
  {
    method: 'GET',
    route: '/debt-recovery/handovers/:id',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: await handedOver(w, owner) }),
  },
  {
    method: 'POST',
    route: '/debt-recovery/updates',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async () => ({
      path: '/debt-recovery/updates',
      json: { csv: 'reference,vrm,outcome,paid_pence,agency_reference\nPCN-99999999,AB12CDE,PAID,1000,AG-1' },
    }),
  },

  // ---- PCNs ----
  { method: 'GET', route: '/pcns', body: 'none', prepare: async () => ({ path: '/pcns?page=1&limit=10' }), expected: signedIn(200) },
  { method: 'GET', route: '/pcns/stats', body: 'none', prepare: async () => ({ path: '/pcns/stats' }), expected: signedIn(200) },
  {
    // A USER may check only a car park assigned to them.
    method: 'GET',
    route: '/pcns/duplicates',
    body: 'none',
    expected: { anonymous: 401, owner: 200, otherUser: 403, admin: 200, superAdmin: 200, landowner: 403, otherLandowner: 403 },
    prepare: async (w) => ({
      path: `/pcns/duplicates?vehicleRegistration=AB12CDE&carParkId=${w.ownerCarParkId}&date=${new Date().toISOString().slice(0, 10)}`,
    }),
  },
  {
    method: 'GET',
    route: '/pcns/:id/audit',
    body: 'none',
    expected: ownerOrAdmin(200),
    prepare: async (w, owner) => ({ path: `/pcns/${(await createOwnedPcn(w, owner)).id}/audit` }),
  },
  {
    method: 'GET',
    route: '/pcns/export.csv',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/pcns/export.csv' }),
  },
  {
    method: 'GET',
    route: '/pcns/selection',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w) => ({ path: `/pcns/selection?carParkId=${w.ownerCarParkId}&sort=vehicleRegistration` }),
  },
  {
    method: 'GET',
    route: '/pcns/:id/neighbours',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: `/pcns/${(await createOwnedPcn(w, owner)).id}/neighbours?status=SUBMITTED&sort=carPark&order=desc`,
    }),
  },
  {
    // Admins only, even for the one change an owner may make alone (cancelling their own notice).
    method: 'POST',
    route: '/pcns/bulk-status',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: '/pcns/bulk-status',
      json: { pcnIds: [(await createOwnedPcn(w, owner)).id], status: 'CANCELLED', adminNotes: 'Bulk', cancellationReason: 'DUPLICATE' },
    }),
  },
  {
    // Admins only, as the bulk change it undoes; a PCN it cannot move back is reported in the 200.
    method: 'POST',
    route: '/pcns/bulk-status/undo',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({
      path: '/pcns/bulk-status/undo',
      json: { pcnIds: [(await createOwnedPcn(w, owner)).id], status: 'UNDER_REVIEW' },
    }),
  },
  {
    // The operator's answer to an appeal: even the officer who filed the notice gets 403.
    method: 'POST',
    route: '/pcns/:id/evidence-packs',
    body: 'none',
    expected: adminsOnly(202),
    prepare: async (w, owner) => ({ path: `/pcns/${(await createOwnedPcn(w, owner)).id}/evidence-packs` }),
  },
  {
    method: 'GET',
    route: '/pcns/:id/evidence-packs/:packId',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: await madePack(w, owner) }),
  },
  {
    method: 'GET',
    route: '/pcns/:id/evidence-packs/:packId/file',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `${await madePack(w, owner)}/file` }),
  },
  {
    // What was sent: letters carry the keeper's name and address, so admins only, as the pack.
    method: 'GET',
    route: '/pcns/:id/documents',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => ({ path: `/pcns/${(await withLetter(w, owner)).pcnId}/documents` }),
  },
  {
    method: 'GET',
    route: '/pcns/:id/documents/:documentId',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async (w, owner) => {
      const { pcnId, documentId } = await withLetter(w, owner);
      return { path: `/pcns/${pcnId}/documents/${documentId}` };
    },
  },
  {
    method: 'GET',
    route: '/pcns/:id',
    body: 'none',
    expected: ownerOrAdmin(200),
    prepare: async (w, owner) => ({ path: `/pcns/${(await createOwnedPcn(w, owner)).id}` }),
  },
  {
    // Filed against the owner's car park: another USER is not assigned to it.
    method: 'POST',
    route: '/pcns',
    body: 'multipart',
    expected: { anonymous: 401, owner: 201, otherUser: 403, admin: 201, superAdmin: 201, landowner: 403, otherLandowner: 403 },
    prepare: async (w) => ({ path: '/pcns', form: pcnCreateForm(w.ownerCarParkId), headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() } }),
  },
  {
    method: 'PUT',
    route: '/pcns/:id',
    body: 'multipart',
    expected: ownerOrAdmin(200),
    prepare: async (w, owner) => ({
      path: `/pcns/${(await createOwnedPcn(w, owner)).id}`,
      form: pcnForm({ description: 'Edited', images: [jpegUpload(21)] }),
    }),
  },
  {
    method: 'DELETE',
    route: '/pcns/:id',
    body: 'none',
    expected: ownerOrAdmin(200),
    prepare: async (w, owner) => ({ path: `/pcns/${(await createOwnedPcn(w, owner)).id}` }),
  },
  {
    method: 'POST',
    route: '/pcns/:id/submit',
    body: 'none',
    expected: ownerOrAdmin(200),
    prepare: async (w, owner) => ({ path: `/pcns/${(await createOwnedPcn(w, owner)).id}/submit` }),
  },
  {
    method: 'PATCH',
    route: '/pcns/:id/status',
    variant: 'to UNDER_REVIEW',
    body: 'json',
    expected: { anonymous: 401, owner: 403, otherUser: 404, admin: 200, superAdmin: 200, landowner: 403, otherLandowner: 403 },
    prepare: async (w, owner) => ({
      path: `/pcns/${(await createOwnedPcn(w, owner)).id}/status`,
      json: { status: 'UNDER_REVIEW', adminNotes: 'Looking' },
    }),
  },
  {
    method: 'PATCH',
    route: '/pcns/:id/status',
    variant: 'to CANCELLED (the owner may cancel)',
    body: 'json',
    expected: ownerOrAdmin(200),
    prepare: async (w, owner) => ({
      path: `/pcns/${(await createOwnedPcn(w, owner)).id}/status`,
      json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
    }),
  },

  // ---- landowners (decision 0042): their car parks' charges and report, their requests; admins decide ----
  {
    method: 'GET',
    route: '/car-parks/:id/charges',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => {
      await createOwnedPcn(w);
      return { path: `/car-parks/${w.ownerCarParkId}/charges?page=1&limit=10` };
    },
  },
  {
    method: 'GET',
    route: '/car-parks/:id/reports/monthly',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({ path: `/car-parks/${w.ownerCarParkId}/reports/monthly?month=${ukDate(w.t.deps.now()).slice(0, 7)}` }),
  },
  {
    method: 'GET',
    route: '/car-parks/:id/reports/monthly.csv',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({ path: `/car-parks/${w.ownerCarParkId}/reports/monthly.csv?month=${ukDate(w.t.deps.now()).slice(0, 7)}` }),
  },
  {
    method: 'GET',
    route: '/car-parks/:id/reports/monthly.pdf',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({ path: `/car-parks/${w.ownerCarParkId}/reports/monthly.pdf?month=${ukDate(w.t.deps.now()).slice(0, 7)}` }),
  },
  {
    method: 'GET',
    route: '/car-parks/:id/terms-history',
    body: 'none',
    expected: carParkOwnersAndAdmins(200),
    prepare: async (w) => ({ path: `/car-parks/${w.ownerCarParkId}/terms-history` }),
  },
  {
    // Only a landowner asks (an admin cancels outright); the charge must be at their car park.
    method: 'POST',
    route: '/pcns/:id/cancellation-requests',
    body: 'json',
    expected: { anonymous: 401, owner: 403, otherUser: 403, admin: 403, superAdmin: 403, landowner: 201, otherLandowner: 404 },
    prepare: async (w) => ({
      path: `/pcns/${(await createOwnedPcn(w)).id}/cancellation-requests`,
      json: { reason: 'The driver is our tenant' },
    }),
  },
  {
    method: 'POST',
    route: '/pcns/:id/cancellation-requests/:requestId/decision',
    body: 'json',
    expected: adminsOnly(200),
    prepare: async (w) => {
      const pcn = await createOwnedPcn(w);
      const asked = await w.t.request('POST', `/pcns/${pcn.id}/cancellation-requests`, {
        token: w.landowner.token,
        json: { reason: 'The driver is our tenant' },
      });
      const requestId = (asked.json as { data: { id: string } }).data.id;
      return {
        path: `/pcns/${pcn.id}/cancellation-requests/${requestId}/decision`,
        json: { decision: 'DECLINED', reason: 'Signs were clear' },
      };
    },
  },

  // ---- evidence: no token and other USERs get the 404 of a name that does not exist ----
  {
    method: 'GET',
    route: '/uploads/:fileName',
    variant: 'with a bearer token',
    body: 'none',
    expected: { anonymous: 404, owner: 200, otherUser: 404, admin: 200, superAdmin: 200, landowner: 404, otherLandowner: 404 },
    prepare: async (w, owner) => ({ path: `/uploads/${(await createOwnedPcn(w, owner)).images[0]!.fileName}` }),
  },
  {
    // The signed URL that GET /pcns/{id} hands out is the authorisation (an <img> sends no header).
    method: 'GET',
    route: '/uploads/:fileName',
    variant: 'with the signed URL',
    body: 'none',
    expected: everyone(200),
    prepare: async (w, owner) => ({ path: (await createOwnedPcn(w, owner)).images[0]!.url.replace(/^\/api/, '') }),
  },
  {
    method: 'GET',
    route: '/uploads/:fileName/thumbnail',
    variant: 'with a bearer token',
    body: 'none',
    expected: { anonymous: 404, owner: 200, otherUser: 404, admin: 200, superAdmin: 200, landowner: 404, otherLandowner: 404 },
    prepare: async (w, owner) => ({ path: `/uploads/${(await createOwnedPcn(w, owner)).images[0]!.fileName}/thumbnail` }),
  },
  {
    method: 'GET',
    route: '/uploads/:fileName/thumbnail',
    variant: 'with the signed URL',
    body: 'none',
    expected: everyone(200),
    prepare: async (w, owner) => ({ path: (await createOwnedPcn(w, owner)).images[0]!.thumbnailUrl!.replace(/^\/api/, '') }),
  },

  // ---- tracking ----
  {
    method: 'POST',
    route: '/tracking/heartbeat',
    body: 'json',
    prepare: async () => ({ path: '/tracking/heartbeat', json: { path: '/dashboard' } }),
    expected: anyAccount(200),
  },
  {
    method: 'GET',
    route: '/tracking/admin/analytics',
    body: 'none',
    prepare: async () => ({ path: '/tracking/admin/analytics' }),
    expected: adminsOnly(200),
  },
  {
    method: 'GET',
    route: '/analytics/money',
    body: 'none',
    prepare: async () => ({ path: '/analytics/money?weeks=4' }),
    expected: adminsOnly(200),
  },
  {
    method: 'GET',
    route: '/analytics/money.csv',
    body: 'none',
    prepare: async () => ({ path: '/analytics/money.csv' }),
    expected: adminsOnly(200),
  },
  {
    method: 'GET',
    route: '/payments/export',
    body: 'none',
    prepare: async () => ({ path: '/payments/export' }),
    expected: adminsOnly(200),
  },
  {
    method: 'GET',
    route: '/tracking/admin/users',
    body: 'none',
    prepare: async () => ({ path: '/tracking/admin/users' }),
    expected: adminsOnly(200),
  },

  // ---- observations: an officer's phone reports its own; admins read everyone's ----
  {
    method: 'PUT',
    route: '/observations/:id',
    body: 'json',
    expected: { anonymous: 401, owner: 200, otherUser: 403, admin: 200, superAdmin: 200, landowner: 403, otherLandowner: 403 },
    prepare: async (w) => ({
      path: `/observations/${randomUUID()}`,
      json: {
        vehicleRegistration: 'OB51ERV',
        carParkId: w.ownerCarParkId,
        observedAt: new Date(Date.now() - 60_000).toISOString(),
        status: 'OPEN',
      },
    }),
  },
  {
    method: 'GET',
    route: '/observations',
    body: 'none',
    prepare: async () => ({ path: '/observations?page=1&limit=5' }),
    expected: adminsOnly(200),
  },

  // ---- the web app's uncaught errors: anyone may report (the sign-in screen breaks too), limited per address ----
  {
    method: 'POST',
    route: '/client-errors',
    body: 'json',
    expected: everyone(202),
    prepare: async () => ({
      path: '/client-errors',
      json: { message: 'TypeError: x is undefined', page: '/pcn/new', buildId: 'test-build' },
    }),
  },

  // ---- onboarding ----
  {
    method: 'GET',
    route: '/onboarding/users',
    body: 'none',
    expected: adminsOnly(200),
    prepare: async () => ({ path: '/onboarding/users' }),
  },
  {
    method: 'POST',
    route: '/onboarding/send/:userId',
    body: 'json',
    needsFreshOwner: true,
    expected: adminsOnly(200),
    prepare: async (_w, owner) => ({ path: `/onboarding/send/${owner.id}`, json: { adminNotes: 'Welcome aboard' } }),
  },
  {
    method: 'POST',
    route: '/onboarding/send-bulk',
    body: 'json',
    needsFreshOwner: true,
    expected: adminsOnly(200),
    prepare: async (_w, owner) => ({ path: '/onboarding/send-bulk', json: { userIds: [owner.id] } }),
  },
];

export function describeEndpoint(endpoint: EndpointCase): string {
  return `${endpoint.method} ${endpoint.route}${endpoint.variant ? ` (${endpoint.variant})` : ''}`;
}

/** A notice of `owner`'s ready for its notice to keeper today, made by the world's admin. */
/** A charge under the operator's terms, with its notice to driver given: a motorist may appeal it. */
async function appealableCharge(w: World, owner: Actor) {
  const carParkId = owner.id === w.owner.id ? w.ownerCarParkId : (await w.t.createCarPark({ assignTo: [owner.id] })).id;
  await termsSinceLongAgo(w.t, carParkId);
  return createOwnedPcn(w, owner);
}

async function openAppeal(w: World, owner: Actor): Promise<{ id: string; token: string }> {
  const pcn = await appealableCharge(w, owner);
  const token = chargeToken(w.t, pcn.id);
  // Entered by the admin, as one by post: the matrix's many cells would spend the per-address
  // limit of confirmation emails (decision 0032) that appeals from /charge are held to.
  const sent = await enterAppeal(w.t, w.admin.token, enteredAppealForm({ pcnId: pcn.id, receivedOn: ukDate(w.t.deps.now()) }));
  if (sent.status !== 201) throw new Error(`appeal failed: ${sent.status} ${sent.text}`);
  const listed = await w.t.request('GET', `/appeals?search=${encodeURIComponent(sent.json.data.reference as string)}`, {
    token: w.admin.token,
  });
  return { id: listed.json.data.items[0].id as string, token };
}

/** An appeal made after the charge's appeal period: its notice to driver was served 40 days ago. */
async function lateAppeal(w: World, owner: Actor): Promise<{ id: string; token: string }> {
  const carParkId = owner.id === w.owner.id ? w.ownerCarParkId : (await w.t.createCarPark({ assignTo: [owner.id] })).id;
  await termsSinceLongAgo(w.t, carParkId);
  const servedAt = new Date(w.t.deps.now().getTime() - 40 * 86_400_000).toISOString();
  const pcn = await createPcnViaApi(w.t, owner.token, carParkId, { observedAt: servedAt, issuedAt: servedAt, noticeServedAt: servedAt });
  const sent = await enterAppeal(w.t, w.admin.token, enteredAppealForm({ pcnId: pcn.id, receivedOn: ukDate(w.t.deps.now()) }));
  if (sent.status !== 201 || sent.json.data.isLate !== true) throw new Error(`late appeal failed: ${sent.status} ${sent.text}`);
  const listed = await w.t.request('GET', `/appeals?search=${encodeURIComponent(sent.json.data.reference as string)}`, {
    token: w.admin.token,
  });
  return { id: listed.json.data.items[0].id as string, token: chargeToken(w.t, pcn.id) };
}

async function decidedAppeal(w: World, owner: Actor): Promise<{ id: string; token: string }> {
  const appeal = await openAppeal(w, owner);
  const decided = await w.t.request('POST', `/appeals/${appeal.id}/decision`, {
    token: w.admin.token,
    json: { outcome: 'REJECTED', reasons: 'The permit shown expired the day before.' },
  });
  if (decided.status !== 200) throw new Error(`decision failed: ${decided.status} ${decided.text}`);
  return appeal;
}

/**
 * An issued charge whose letter before claim went 60 days ago: one the agency may take. The notice
 * to keeper is made and posted through the API; the collection letters' stage is written as their
 * posting records it (debt-recovery.test.ts reaches it through the letters themselves).
 */
async function pastLetterBeforeClaim(w: World, owner: Actor): Promise<string> {
  const { pcnId } = await withLetter(w, owner);
  const posted = await w.t.request('POST', '/keeper-notices/posted', {
    token: w.admin.token,
    json: { pcnIds: [pcnId], postedOn: ukDate(w.t.deps.now()) },
  });
  if (posted.status !== 200) throw new Error(`notice not posted: ${posted.status} ${posted.text}`);
  const postedOn = ukDate(new Date(w.t.deps.now().getTime() - 60 * 86_400_000));
  await w.t.db
    .updateTable('pcns')
    .set({ collection_stage: 'LETTER_BEFORE_CLAIM', reminder_posted_on: postedOn, letter_before_claim_posted_on: postedOn })
    .where('id', '=', pcnId)
    .execute();
  return pcnId;
}

/**
 * An issued charge whose reminder is due today: its notice to keeper made and posted through the
 * API, then dated 40 days back (collection-letters.test.ts reaches the day on a moving clock).
 */
async function reminderDue(w: World, owner: Actor): Promise<string> {
  const { pcnId } = await withLetter(w, owner);
  const posted = await w.t.request('POST', '/keeper-notices/posted', {
    token: w.admin.token,
    json: { pcnIds: [pcnId], postedOn: ukDate(w.t.deps.now()) },
  });
  if (posted.status !== 200) throw new Error(`notice not posted: ${posted.status} ${posted.text}`);
  const givenOn = ukDate(new Date(w.t.deps.now().getTime() - 40 * 86_400_000));
  await w.t.db
    .updateTable('pcns')
    .set({ keeper_notice_posted_on: givenOn, keeper_notice_given_on: givenOn })
    .where('id', '=', pcnId)
    .execute();
  return pcnId;
}

/** A notice whose letter to the keeper was made today, and the letter's stored document. */
async function withLetter(w: World, owner: Actor): Promise<{ pcnId: string; documentId: string }> {
  const pcn = await readyForLetter(w, owner);
  const made = await w.t.request('POST', '/keeper-notices/letters', { token: w.admin.token, json: { pcnIds: [pcn.id] } });
  if (made.status !== 200) throw new Error(`letter not made: ${made.status}`);
  const listed = await w.t.request('GET', `/pcns/${pcn.id}/documents`, { token: w.admin.token });
  const letter = (listed.json.data as SentDocumentListResponse).items.find((item) => item.kind === 'NOTICE_TO_KEEPER');
  if (!letter) throw new Error(`no letter kept: ${listed.text}`);
  return { pcnId: pcn.id, documentId: letter.id };
}

async function readyForLetter(w: World, owner: Actor) {
  const carParkId = owner.id === w.owner.id ? w.ownerCarParkId : (await w.t.createCarPark({ assignTo: [owner.id] })).id;
  await termsSinceLongAgo(w.t, carParkId);
  return letterReadyPcn(w.t, { officerToken: owner.token, adminToken: w.admin.token, carParkId });
}

/** The path of an evidence pack, made: the test app works its jobs before a request answers. */
async function madePack(w: World, owner: Actor): Promise<string> {
  const pcn = await createOwnedPcn(w, owner);
  const made = await w.t.request('POST', `/pcns/${pcn.id}/evidence-packs`, { token: w.admin.token });
  if (made.status !== 202) throw new Error(`pack not made: ${made.status} ${made.text}`);
  return `/pcns/${pcn.id}/evidence-packs/${made.json.data.id as string}`;
}

/** A hand-over of one charge to the debt recovery agency, made: the path of the hand-over, which names its batch. */
async function handedOver(w: World, owner: Actor): Promise<string> {
  const made = await w.t.request('POST', '/debt-recovery/exports', {
    token: w.admin.token,
    json: { pcnIds: [await pastLetterBeforeClaim(w, owner)] },
  });
  if (made.status !== 202) throw new Error(`hand-over not asked for: ${made.status} ${made.text}`);
  return `/debt-recovery/handovers/${made.json.data.id as string}`;
}

/** A batch of one notice to keeper, made: the test app works its jobs before a request answers. */
async function madeBatch(w: World, owner: Actor): Promise<string> {
  const pcn = await readyForLetter(w, owner);
  const made = await w.t.request('POST', '/keeper-notices/batches', { token: w.admin.token, json: { pcnIds: [pcn.id] } });
  if (made.status !== 202) throw new Error(`batch not made: ${made.status} ${made.text}`);
  return made.json.data.id as string;
}
