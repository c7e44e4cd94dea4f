import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalDb } from './local-db/database.ts';
import { createEmptyDraft } from './local-db/drafts.ts';
import type { LocalDb } from './local-db/records.ts';
import { abortTransactionsWhenCached } from './page-cache-guard.ts';

function pageEvent(type: 'pagehide' | 'pageshow', persisted: boolean): Event {
  return Object.assign(new Event(type), { persisted });
}

function fakePage() {
  const target = new EventTarget();
  const reload = vi.fn();
  return { page: Object.assign(target, { location: { reload } }), reload };
}

describe('abortTransactionsWhenCached', () => {
  let db: LocalDb;
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('aborts a write in flight when the page goes into the back/forward cache, so other connections are not held, and reloads if it comes back', async () => {
    const name = `guard-${randomUUID()}`;
    db = createLocalDb(name);
    const { page, reload } = fakePage();
    abortTransactionsWhenCached(db, page);
    await db.open();

    const draft = createEmptyDraft('officer-1', randomUUID(), Date.now());
    const write = db.drafts.put(draft);
    page.dispatchEvent(pageEvent('pagehide', true));
    await expect(write).rejects.toThrow();

    // Another page's connection reads and writes at once; the aborted write left nothing.
    const other = createLocalDb(name);
    expect(await other.drafts.count()).toBe(0);
    await other.drafts.put(draft);
    other.close();

    page.dispatchEvent(pageEvent('pageshow', true));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('leaves transactions alone when the page is unloaded for good, and does not reload a page that lost nothing', async () => {
    db = createLocalDb(`guard-${randomUUID()}`);
    const { page, reload } = fakePage();
    abortTransactionsWhenCached(db, page);
    await db.open();

    const draft = createEmptyDraft('officer-1', randomUUID(), Date.now());
    const write = db.drafts.put(draft);
    page.dispatchEvent(pageEvent('pagehide', false));
    await write;
    expect(await db.drafts.get(draft.id)).toMatchObject({ id: draft.id });
    // Nothing in flight once the read's transaction has completed.
    await new Promise((resolve) => setTimeout(resolve, 20));

    page.dispatchEvent(pageEvent('pagehide', true));
    page.dispatchEvent(pageEvent('pageshow', true));
    expect(reload).not.toHaveBeenCalled();
  });
});
