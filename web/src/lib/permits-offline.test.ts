import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermitSyncResponse, PhonePermit } from '@parkpatrol/shared';
import { createLocalDb } from './local-db/database.ts';
import { createEmptyDraft, saveDraft } from './local-db/drafts.ts';
import { readCache, writeCache } from './local-db/read-cache.ts';
import type { LocalDb } from './local-db/records.ts';
import { applyPermitSync, checkPermit, needsFullList, permitsKey, type StoredPermits } from './permits-offline.ts';

const NOW = new Date('2026-06-10T09:00:00.000Z');
const permit = (id: string, overrides: Partial<PhonePermit> = {}): PhonePermit => ({
  id,
  carParkId: 'cp1',
  vehicleRegistration: `AB${id}CDE`,
  kind: 'STAFF',
  validFrom: '2026-01-01T00:00:00.000Z',
  validUntil: '2026-12-31T23:59:59.999Z',
  endedAt: null,
  ...overrides,
});
const answer = (overrides: Partial<PermitSyncResponse>): PermitSyncResponse => ({
  permits: [],
  carParkIds: ['cp1'],
  syncedAt: NOW.toISOString(),
  full: false,
  ...overrides,
});

let db: LocalDb;
beforeEach(() => {
  db = createLocalDb(`permits-test-${randomUUID()}`);
});
afterEach(() => db.close());

describe("the phone's permits", () => {
  it('takes the whole list at sign-in, then only the changes: a new permit joins, an ended one goes', () => {
    const first = applyPermitSync(null, answer({ full: true, permits: [permit('11'), permit('12')] }), NOW);
    expect(first.permits.map((p) => p.id)).toEqual(['11', '12']);
    const next = applyPermitSync(
      first,
      answer({ permits: [permit('13'), permit('11', { endedAt: '2026-06-10T08:59:00.000Z' })], syncedAt: '2026-06-10T09:05:00.000Z' }),
      NOW,
    );
    expect(next.permits.map((p) => p.id).sort()).toEqual(['12', '13']);
    expect(next.syncedAt).toBe('2026-06-10T09:05:00.000Z');
  });

  it('drops the permits of a car park no longer the officer’s, and asks for the whole list for a new one', () => {
    const stored = applyPermitSync(
      null,
      answer({ full: true, permits: [permit('11'), permit('21', { carParkId: 'cp2' })], carParkIds: ['cp1', 'cp2'] }),
      NOW,
    );
    expect(applyPermitSync(stored, answer({ carParkIds: ['cp1'] }), NOW).permits.map((p) => p.id)).toEqual(['11']);
    expect(needsFullList(stored, answer({ carParkIds: ['cp1', 'cp3'] }))).toBe(true);
    expect(needsFullList(stored, answer({ carParkIds: ['cp1'] }))).toBe(false);
  });

  it('answers the vehicle step from the copy kept on the phone, however the registration is typed', async () => {
    const stored: StoredPermits = { permits: [permit('11')], carParkIds: ['cp1'], syncedAt: NOW.toISOString() };
    await writeCache(db, permitsKey('officer-1'), stored);
    // What the page reads back with no signal at all.
    const kept = (await readCache<StoredPermits>(db, permitsKey('officer-1')))!.value;
    const held = checkPermit(kept, { carParkId: 'cp1', vehicleRegistration: 'ab11 cde', at: NOW });
    expect(held.permit?.id).toBe('11');
    expect(held.countAtCarPark).toBe(1);
    expect(checkPermit(kept, { carParkId: 'cp2', vehicleRegistration: 'AB11CDE', at: NOW }).permit).toBeNull();
    expect(checkPermit(kept, { carParkId: 'cp1', vehicleRegistration: 'AB11CDE', at: new Date('2027-01-01T00:00:00Z') }).permit).toBeNull();
    expect(checkPermit(null, { carParkId: 'cp1', vehicleRegistration: 'AB11CDE', at: NOW })).toMatchObject({
      permit: null,
      hasList: false,
    });
    // Another officer on the same phone has a list of their own.
    expect(await readCache(db, permitsKey('officer-2'))).toBeUndefined();
  });

  it("keeps the officer's reason to issue despite a permit with the draft, for the outbox to send", async () => {
    const draft = createEmptyDraft('officer-1', randomUUID(), Date.now());
    await saveDraft(db, draft);
    await saveDraft(db, { ...draft, vehicleRegistration: 'AB11CDE', permitOverrideReason: 'Parked outside the permitted bays' });
    expect(await db.drafts.get(draft.id)).toMatchObject({
      vehicleRegistration: 'AB11CDE',
      permitOverrideReason: 'Parked outside the permitted bays',
    });
  });
});
