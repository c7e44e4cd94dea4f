import { compareFilingOrder } from '../../lib/local-db/outbox-queue.ts';
import type { DraftRecord } from '../../lib/local-db/records.ts';
import { RETRY_REASONS } from './retry-reasons.ts';

/**
 * The order the outbox sends in (docs/product.md, Working offline): one notice at a time, the
 * oldest filed first, so the numbers the server gives follow the order the notices were filed.
 * A notice that could not go (no answer, the server busy) holds back the ones filed after it
 * until it has gone: they would meet the same network, and sent past it they would take the
 * earlier numbers. A refused notice leaves the queue ('failed'), so it holds back nothing.
 *
 * Order gives way to delivery in one case: a notice that has failed STEP_ASIDE_AFTER_ATTEMPTS
 * times for a reason of its own (an upload that always times out, an answer the phone cannot
 * read) steps aside, keeps trying on its own backoff, and lets the ones behind it go. With no
 * signal, or the server down or busy for everyone, nothing steps aside: the others would fail
 * the same way, and the first to get through would take the head's number.
 */

type Queued = Pick<DraftRecord, 'id' | 'userId' | 'state' | 'queuedAt' | 'createdAt' | 'nextAttemptAt' | 'attempts' | 'lastError'>;

/** Failed tries after which a notice failing on its own stops holding back the ones filed after it. */
export const STEP_ASIDE_AFTER_ATTEMPTS = 5;

/** Failures that may be the notice's own rather than the network's or the whole server's. */
const OWN_FAILURES: ReadonlySet<string> = new Set([RETRY_REASONS.timeout, RETRY_REASONS.unexpectedAnswer]);

function holdsBack(draft: Queued): boolean {
  return draft.attempts < STEP_ASIDE_AFTER_ATTEMPTS || !OWN_FAILURES.has(draft.lastError ?? '');
}

/** The oldest filed of one officer's queued notices, whatever its backoff; undefined when none waits. */
export function queueHead<T extends Queued>(queued: readonly T[]): T | undefined {
  return frontOfQueue(queued)[0];
}

/**
 * The notices of one officer's queue that may go, in filing order: the head and, past any that
 * stepped aside, up to the first one that holds the rest back.
 */
function frontOfQueue<T extends Queued>(queued: readonly T[]): T[] {
  const line = queued.filter((draft) => draft.state === 'queued').sort(compareFilingOrder);
  const stop = line.findIndex(holdsBack);
  return stop === -1 ? line : line.slice(0, stop + 1);
}

/**
 * The notice to send next from one officer's queued notices: the head of the queue when it is
 * due (or `force`: signal back, app start, 'Retry now'), and not already tried in this pass;
 * else none, and the queue waits for its head.
 */
export function nextToSend<T extends Queued>(
  queued: readonly T[],
  options: { at: number; force: boolean; attempted: ReadonlySet<string> },
): T | null {
  for (const draft of frontOfQueue(queued)) {
    if (options.attempted.has(draft.id)) {
      // Tried in this pass and back in the queue: if it holds the rest back, the pass ends here.
      if (holdsBack(draft)) return null;
      continue;
    }
    if (options.force || draft.nextAttemptAt <= options.at) return draft;
    if (holdsBack(draft)) return null;
  }
  return null;
}

/** The front of each officer's queue: a phone shared by two officers keeps two queues. */
function frontsByOfficer<T extends Queued>(drafts: readonly T[]): T[] {
  const byOfficer = new Map<string, T[]>();
  for (const draft of drafts) if (draft.state === 'queued') byOfficer.set(draft.userId, [...(byOfficer.get(draft.userId) ?? []), draft]);
  return [...byOfficer.values()].flatMap((queued) => frontOfQueue(queued));
}

/**
 * When the outbox should look again (epoch ms), from the waiting rows ('queued' and 'sending'):
 * when the front of a queue is due, or when a claim's lease runs out (its runner may have died). A
 * younger notice's own backoff wakes nobody: it waits for the head. Null when nothing waits.
 */
export function nextWakeAt(drafts: readonly Queued[]): number | null {
  const times = [
    ...frontsByOfficer(drafts).map((draft) => draft.nextAttemptAt),
    ...drafts.filter((draft) => draft.state === 'sending').map((draft) => draft.nextAttemptAt),
  ];
  return times.length > 0 ? Math.min(...times) : null;
}

/** Whether the front of some officer's queue is due now, so a run would send something. */
export function isAnyHeadDue(drafts: readonly Queued[], at: number): boolean {
  return frontsByOfficer(drafts).some((draft) => draft.nextAttemptAt <= at);
}
