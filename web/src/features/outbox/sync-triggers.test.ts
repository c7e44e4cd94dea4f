import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queueDraft } from '../../lib/local-db/drafts.ts';
import type { LocalDb } from '../../lib/local-db/records.ts';
import type { OutboxRunOptions, OutboxRunResult } from './outbox-sync.ts';
import { RETRY_REASONS } from './retry-reasons.ts';
import { addQueuedDraft, createTestDb } from './outbox-test-kit.ts';
import { OUTBOX_SYNC_TAG, startOutboxTriggers } from './sync-triggers.ts';

const idle: OutboxRunResult = { sent: 0, failed: 0, retrying: 0, needsSignIn: 0, pending: 0, nextAttemptAt: null, signedOut: false };

function createRecordingRunner() {
  const calls: OutboxRunOptions[] = [];
  return { calls, run: async (options: OutboxRunOptions = {}) => (calls.push(options), idle) };
}

function createHost() {
  const windowTarget = new EventTarget();
  const documentTarget = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  const registered: string[] = [];
  return {
    registered,
    host: {
      window: windowTarget,
      document: documentTarget,
      getServiceWorkerRegistration: async () => ({ sync: { register: async (tag: string) => void registered.push(tag) } }),
    },
  };
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(check()).toBe(true);
};

let db: LocalDb;
let stop: () => void = () => undefined;
beforeEach(() => {
  db = createTestDb();
});
afterEach(() => {
  stop();
  db.close();
});

describe('outbox triggers', () => {
  it('runs at once, ignoring backoff, when the app starts', async () => {
    const runner = createRecordingRunner();
    stop = startOutboxTriggers(db, runner, createHost().host).stop;
    expect(runner.calls[0]).toEqual({ force: true });
  });

  it('runs forced when the signal returns and unforced when the app becomes visible', async () => {
    const runner = createRecordingRunner();
    const { host } = createHost();
    stop = startOutboxTriggers(db, runner, host).stop;
    runner.calls.length = 0;
    host.window.dispatchEvent(new Event('online'));
    host.document.dispatchEvent(new Event('visibilitychange'));
    host.document.visibilityState = 'hidden';
    host.document.dispatchEvent(new Event('visibilitychange'));
    expect(runner.calls).toEqual([{ force: true }, {}]);
  });

  it('runs when a draft is submitted and registers Background Sync for it', async () => {
    const runner = createRecordingRunner();
    const { host, registered } = createHost();
    const draft = await addQueuedDraft(db, 'user-1', { state: 'draft' }, 0);
    stop = startOutboxTriggers(db, runner, host).stop;
    await new Promise((resolve) => setTimeout(resolve, 50));
    runner.calls.length = 0;

    await queueDraft(db, draft.id);

    await waitFor(() => runner.calls.length > 0 && registered.length > 0);
    expect(registered).toEqual([OUTBOX_SYNC_TAG]);
  });

  it('asks the server while notices wait for a connection, and runs forced the moment it answers again', async () => {
    const runner = createRecordingRunner();
    const { host } = createHost();
    const answers = [false, false, true, true];
    let probes = 0;
    // Backed off for an hour: only the probe can bring it forward.
    await addQueuedDraft(db, 'user-1', { lastError: RETRY_REASONS.offline, nextAttemptAt: Date.now() + 3_600_000 }, 0);
    stop = startOutboxTriggers(db, runner, {
      ...host,
      probeIntervalMs: 20,
      probeServer: async () => answers[Math.min(probes++, answers.length - 1)]!,
    }).stop;
    await new Promise((resolve) => setTimeout(resolve, 30));
    runner.calls.length = 0;
    await waitFor(() => probes >= 4);
    // One forced run, when the answer turned from none to yes; not one per probe after.
    expect(runner.calls).toEqual([{ force: true }]);
  });

  it('tells the app what its looks at the server found, and that it knows nothing once nothing waits', async () => {
    const runner = createRecordingRunner();
    const heard: Array<boolean | null> = [];
    const answers = [false, true];
    let probes = 0;
    const draft = await addQueuedDraft(db, 'user-1', { lastError: RETRY_REASONS.offline, nextAttemptAt: Date.now() + 3_600_000 }, 0);
    stop = startOutboxTriggers(db, runner, {
      ...createHost().host,
      probeIntervalMs: 20,
      probeServer: async () => answers[Math.min(probes++, answers.length - 1)]!,
      onReachability: (reachable) => void heard.push(reachable),
    }).stop;
    await waitFor(() => heard.includes(true));
    await db.drafts.update(draft.id, { state: 'sent' });
    await waitFor(() => heard.at(-1) === null);
    expect(heard).toEqual([false, true, null]);
  });

  it('does not probe when nothing waits for a connection', async () => {
    const runner = createRecordingRunner();
    let probes = 0;
    await addQueuedDraft(db, 'user-1', { lastError: RETRY_REASONS.serverUnavailable, nextAttemptAt: Date.now() + 3_600_000 }, 0);
    stop = startOutboxTriggers(db, runner, { ...createHost().host, probeIntervalMs: 10, probeServer: async () => (probes++, true) }).stop;
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(probes).toBe(0);
  });

  it('wakes up for the oldest notice’s backoff, not a younger one’s: the queue goes in filing order', async () => {
    const runner = createRecordingRunner();
    await addQueuedDraft(db, 'user-1', { queuedAt: 1_000, nextAttemptAt: Date.now() + 3_600_000 }, 0);
    await addQueuedDraft(db, 'user-1', { queuedAt: 2_000, nextAttemptAt: Date.now() + 50 }, 0);
    stop = startOutboxTriggers(db, runner, createHost().host).stop;
    await new Promise((resolve) => setTimeout(resolve, 150));
    // Only the start's own run: the younger notice's backoff running out wakes nobody.
    expect(runner.calls).toEqual([{ force: true }]);
  });

  it('wakes up when the earliest backoff runs out', async () => {
    const runner = createRecordingRunner();
    await addQueuedDraft(db, 'user-1', { nextAttemptAt: Date.now() + 150 }, 0);
    stop = startOutboxTriggers(db, runner, createHost().host).stop;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = runner.calls.length;
    await waitFor(() => runner.calls.length > before);
  });
});
