import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import type { KeeperNotice } from '@parkpatrol/shared';
import { ADMIN, evidencePhotos, expect, OFFICER } from './fixtures.ts';

/** Helpers of the admin specs: set-up through the real API, so the browser time goes to what is under test. */

export type Account = { email: string; password: string };

export async function apiToken(request: APIRequestContext, account: Account = ADMIN): Promise<string> {
  const response = await request.post('/api/auth/login', { data: account });
  expect(response.status(), `sign-in of ${account.email}`).toBe(200);
  return ((await response.json()) as { data: { token: string } }).data.token;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Unique per run and project: parallel projects and re-runs never collide. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`.toUpperCase();
}

export async function createUserThroughApi(
  request: APIRequestContext,
  adminToken: string,
  user: { firstName: string; lastName: string; email: string; password?: string; isActive?: boolean; carParkIds?: string[] },
): Promise<{ id: string }> {
  const response = await request.post('/api/users', { headers: bearer(adminToken), data: user });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string } }).data;
}

/** A PCN with the four evidence photos, filed by `token`'s user against their first (or given) car park. */
export async function createPcnThroughApi(
  request: APIRequestContext,
  token: string,
  fields: { registration: string; carParkId?: string; description?: string },
): Promise<{ id: string; pcnNumber: string }> {
  let carParkId = fields.carParkId;
  if (!carParkId) {
    const carParks = (await (await request.get('/api/car-parks', { headers: bearer(token) })).json()) as { data: Array<{ id: string }> };
    carParkId = carParks.data[0]!.id;
  }
  const form = new FormData();
  form.set('vehicleRegistration', fields.registration);
  form.set('noticeServedBy', 'AFFIXED');
  form.set('carParkId', carParkId);
  form.set('offenceType', 'PARKING_WITHOUT_PERMIT');
  form.set('location', 'Row C, bay 14');
  form.set('description', fields.description ?? 'No permit on display');
  for (const file of evidencePhotos()) {
    form.append('images', new Blob([readFileSync(file)], { type: 'image/jpeg' }), basename(file));
  }
  const response = await request.post('/api/pcns', {
    headers: { ...bearer(token), 'Idempotency-Key': crypto.randomUUID() },
    multipart: form,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { id: string; pcnNumber: string } }).data;
}

/**
 * Searches an admin list and waits until the answer for exactly this search is on screen. Rows
 * move when the answer arrives, so a row's menu opened before it can move out from under the
 * pointer; an admin reads the results before acting, and so do the specs.
 */
export async function searchAdminList(page: Page, text: string): Promise<void> {
  const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get('search') === text.trim());
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
  await answered;
  await expect(page.locator('.admin-table-scroll[aria-busy="true"]')).toHaveCount(0);
}

export { ADMIN, OFFICER };

export type EvidencePhotoFacts = {
  takenAt?: string;
  takenAtSource?: 'camera' | 'added';
  latitude?: number;
  longitude?: number;
  accuracyM?: number;
  /** Checklist shot ids this photo shows. */
  shots?: string[];
};

/**
 * A PCN sent the way the phone sends it: each photo with its SHA-256 and capture
 * facts, the device's own clock in X-Device-Time, and the first sighting and issue times.
 */
export async function createEvidencePcnThroughApi(
  request: APIRequestContext,
  token: string,
  fields: {
    registration: string;
    carParkId: string;
    observedAt: string;
    issuedAt?: string;
    stayApplies?: boolean;
    deviceTime?: string;
    duplicateReason?: string;
    noticeServedBy?: 'AFFIXED' | 'HANDED' | 'DRIVE_OFF';
    photos?: EvidencePhotoFacts[];
  },
): Promise<{ id: string; pcnNumber: string; photoSha256: string[]; keeperNotice: KeeperNotice }> {
  const form = new FormData();
  form.set('vehicleRegistration', fields.registration);
  form.set('noticeServedBy', fields.noticeServedBy ?? 'AFFIXED');
  form.set('carParkId', fields.carParkId);
  form.set('offenceType', 'PARKING_WITHOUT_PERMIT');
  form.set('location', 'Row C, bay 14');
  form.set('description', 'No permit on display');
  form.set('observedAt', fields.observedAt);
  if (fields.issuedAt) form.set('issuedAt', fields.issuedAt);
  if (fields.stayApplies !== undefined) form.set('stayApplies', String(fields.stayApplies));
  if (fields.duplicateReason) form.set('duplicateReason', fields.duplicateReason);
  const photoSha256: string[] = [];
  for (const [index, file] of evidencePhotos().entries()) {
    const bytes = readFileSync(file);
    const facts = fields.photos?.[index] ?? {};
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    photoSha256.push(sha256);
    form.append('images', new Blob([bytes], { type: 'image/jpeg' }), basename(file));
    // Facts are repeated fields in photo order: every photo sends each one, empty when unknown.
    form.append('imageSha256', sha256);
    form.append('imageTakenAt', facts.takenAt ?? '');
    form.append('imageTakenAtSource', facts.takenAt ? (facts.takenAtSource ?? 'added') : '');
    form.append('imageLatitude', facts.latitude?.toString() ?? '');
    form.append('imageLongitude', facts.longitude?.toString() ?? '');
    form.append('imageAccuracy', facts.accuracyM?.toString() ?? '');
    form.append('imageShots', (facts.shots ?? []).join(','));
  }
  const headers: Record<string, string> = { ...bearer(token), 'Idempotency-Key': crypto.randomUUID() };
  if (fields.deviceTime) headers['X-Device-Time'] = fields.deviceTime;
  const response = await request.post('/api/pcns', { headers, multipart: form });
  expect(response.status(), await response.text()).toBe(201);
  const pcn = ((await response.json()) as { data: { id: string; pcnNumber: string; keeperNotice: KeeperNotice } }).data;
  return { ...pcn, photoSha256 };
}

export async function firstCarParkId(request: APIRequestContext, token: string): Promise<string> {
  const carParks = (await (await request.get('/api/car-parks', { headers: bearer(token) })).json()) as { data: Array<{ id: string }> };
  return carParks.data[0]!.id;
}

export type CarParkSettings = {
  stayAppliesByDefault?: boolean;
  considerationMinutes?: number;
  graceMinutes?: number;
  /** Required when a period is shorter than the Single Code's minimum (SECTOR_LIMITS in shared). */
  minimumsOverrideReason?: string;
  chargePence?: number;
  reducedChargePence?: number;
  reducedWithinDays?: number;
  signageTerms?: string;
};

export async function createCarPark(
  request: APIRequestContext,
  adminToken: string,
  name: string,
  settings: CarParkSettings = {},
): Promise<string> {
  const suffix = uniqueSuffix();
  const created = await request.post('/api/car-parks', {
    headers: bearer(adminToken),
    data: { name, siteCode: `GC${suffix}`.slice(0, 12) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = ((await created.json()) as { data: { id: string } }).data.id;
  if (Object.keys(settings).length > 0) {
    const updated = await request.put(`/api/car-parks/${id}`, { headers: bearer(adminToken), data: settings });
    expect(updated.status(), await updated.text()).toBe(200);
  }
  return id;
}

/** A new officer with exactly these car parks. */
export async function createOfficer(request: APIRequestContext, adminToken: string, name: string, carParkIds: string[]) {
  const suffix = uniqueSuffix().toLowerCase();
  const account = { email: `${name.toLowerCase()}-${suffix}@example.com`, password: `${name.toLowerCase()}-pass1` };
  await createUserThroughApi(request, adminToken, { firstName: name, lastName: 'Officer', ...account, carParkIds });
  return account;
}

/** PCNs with this registration on the server (as an admin sees them). */
export async function pcnsOnServer(request: APIRequestContext, adminToken: string, registration: string): Promise<number> {
  const response = await request.get(`/api/pcns?scope=all&search=${registration}`, { headers: bearer(adminToken) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { data: { pcns: unknown[] } }).data.pcns.length;
}
