import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalDb } from '../../../lib/local-db/database.ts';
import { createEmptyDraft, saveDraft } from '../../../lib/local-db/drafts.ts';
import type { LocalDb } from '../../../lib/local-db/records.ts';
import { createDexieDraftStore } from './draft-store.ts';

let db: LocalDb;
beforeEach(() => {
  db = createLocalDb(`draft-store-test-${randomUUID()}`);
});
afterEach(() => db.close());

describe('the form’s draft store', () => {
  it('opens a draft for its own officer only: another officer on a shared phone gets a fresh one', async () => {
    const first = createEmptyDraft('officer-1', randomUUID(), 1000);
    await saveDraft(db, { ...first, vehicleRegistration: 'AB12' });
    const store = createDexieDraftStore(() => db);
    expect(await store.load(first.id, 'officer-2')).toBe('locked');
    expect(await store.load(first.id, 'officer-1')).toMatchObject({ id: first.id, vehicleRegistration: 'AB12' });
  });
});
