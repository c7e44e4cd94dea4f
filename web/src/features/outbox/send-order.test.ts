import { describe, expect, it } from 'vitest';
import { createEmptyDraft } from '../../lib/local-db/drafts.ts';
import type { DraftRecord } from '../../lib/local-db/records.ts';
import { RETRY_REASONS } from './retry-reasons.ts';
import { isAnyHeadDue, nextToSend, nextWakeAt, queueHead, STEP_ASIDE_AFTER_ATTEMPTS } from './send-order.ts';

function queued(id: string, queuedAt: number | null, overrides: Partial<DraftRecord> = {}): DraftRecord {
  return { ...createEmptyDraft('officer-1', id, 500), state: 'queued', queuedAt, ...overrides };
}

const none = new Set<string>();

describe('the order the outbox sends in', () => {
  it('takes the oldest filed first, whatever order the rows come in or their backoffs say', () => {
    const rows = [queued('c', 3_000), queued('a', 1_000, { nextAttemptAt: 9_000 }), queued('b', 2_000)];
    expect(queueHead(rows)?.id).toBe('a');
    expect(nextToSend(rows, { at: 10_000, force: false, attempted: none })?.id).toBe('a');
  });

  it('lets nothing past a head still backing off: the younger notices wait for it', () => {
    const rows = [queued('a', 1_000, { nextAttemptAt: 60_000 }), queued('b', 2_000, { nextAttemptAt: 0 })];
    expect(nextToSend(rows, { at: 10_000, force: false, attempted: none })).toBeNull();
    // Signal back, app start or 'Retry now': the head goes at once, then the rest behind it.
    expect(nextToSend(rows, { at: 10_000, force: true, attempted: none })?.id).toBe('a');
  });

  it('ends the pass when the head was tried in it and is queued again (no answer): nothing overtakes it', () => {
    const rows = [queued('a', 1_000), queued('b', 2_000)];
    expect(nextToSend(rows, { at: 10_000, force: true, attempted: new Set(['a']) })).toBeNull();
  });

  it('skips what has left the queue: a refused notice holds nothing back', () => {
    const rows = [queued('a', 1_000, { state: 'failed' }), queued('b', 2_000, { state: 'needs-sign-in' }), queued('c', 3_000)];
    expect(nextToSend(rows, { at: 10_000, force: false, attempted: none })?.id).toBe('c');
  });

  it('orders by when Submit was first pressed, then when the notice was begun, then its id', () => {
    const rows = [
      queued('z', null, { createdAt: 2_000 }),
      queued('y', 1_500, { createdAt: 1_000 }),
      queued('x', 1_500, { createdAt: 1_000 }),
    ];
    expect(queueHead(rows)?.id).toBe('x');
    expect(queueHead(rows.filter((row) => row.id !== 'x' && row.id !== 'y'))?.id).toBe('z');
  });
});

describe('a notice that fails on its own', () => {
  const stuck = (reason: string, attempts = STEP_ASIDE_AFTER_ATTEMPTS) =>
    queued('a', 1_000, { attempts, lastError: reason, nextAttemptAt: 600_000 });

  it('steps aside after repeated timeouts or unreadable answers, and the notices behind it go in their order', () => {
    for (const reason of [RETRY_REASONS.timeout, RETRY_REASONS.unexpectedAnswer]) {
      const rows = [queued('c', 3_000), stuck(reason), queued('b', 2_000)];
      expect(nextToSend(rows, { at: 10_000, force: false, attempted: none })?.id).toBe('b');
      expect(nextToSend(rows, { at: 10_000, force: false, attempted: new Set(['b']) })).toBeNull();
      // It still goes first when it is due, and on signal back.
      expect(nextToSend(rows, { at: 600_000, force: false, attempted: none })?.id).toBe('a');
      expect(nextToSend(rows, { at: 10_000, force: true, attempted: none })?.id).toBe('a');
      expect(nextToSend(rows, { at: 10_000, force: true, attempted: new Set(['a']) })?.id).toBe('b');
    }
  });

  it('holds the queue until then, and always for no signal or a server down or busy for everyone', () => {
    const early = [stuck(RETRY_REASONS.timeout, STEP_ASIDE_AFTER_ATTEMPTS - 1), queued('b', 2_000)];
    expect(nextToSend(early, { at: 10_000, force: false, attempted: none })).toBeNull();
    for (const reason of [RETRY_REASONS.offline, RETRY_REASONS.serverUnavailable, RETRY_REASONS.rateLimited]) {
      const rows = [stuck(reason, 20), queued('b', 2_000)];
      expect(nextToSend(rows, { at: 10_000, force: false, attempted: none })).toBeNull();
      expect(nextWakeAt(rows)).toBe(600_000);
    }
  });

  it('wakes the outbox for the notice behind it', () => {
    const rows = [stuck(RETRY_REASONS.unexpectedAnswer), queued('b', 2_000, { nextAttemptAt: 30_000 })];
    expect(nextWakeAt(rows)).toBe(30_000);
    expect(isAnyHeadDue(rows, 30_000)).toBe(true);
  });
});

describe('when the outbox looks again', () => {
  it('at the head’s backoff, not at a younger notice’s earlier one', () => {
    const rows = [queued('a', 1_000, { nextAttemptAt: 60_000 }), queued('b', 2_000, { nextAttemptAt: 5_000 })];
    expect(nextWakeAt(rows)).toBe(60_000);
    expect(isAnyHeadDue(rows, 10_000)).toBe(false);
    expect(isAnyHeadDue(rows, 60_000)).toBe(true);
  });

  it('at each officer’s head, and when a claim’s lease runs out', () => {
    const rows = [
      queued('a', 1_000, { nextAttemptAt: 60_000 }),
      queued('b', 1_000, { userId: 'officer-2', nextAttemptAt: 40_000 }),
      queued('c', 500, { state: 'sending', nextAttemptAt: 50_000 }),
    ];
    expect(nextWakeAt(rows)).toBe(40_000);
    expect(nextWakeAt(rows.filter((row) => row.id !== 'b'))).toBe(50_000);
    expect(nextWakeAt([])).toBeNull();
  });
});
