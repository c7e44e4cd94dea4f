import { createWorkerQueue, RENDER_WORKER_LIMITS } from '../worker-queue.ts';
import type { KeeperLetterToRender } from './render-keeper-letters.ts';
import type { LetterRenderRequest } from './render-worker.ts';

// The same heap and time limits as the evidence pack's worker: a runaway letter fails alone.
const letterQueue = createWorkerQueue<Omit<LetterRenderRequest, 'id'>>({
  script: new URL('./render-worker.ts', import.meta.url),
  name: 'letters',
  limits: RENDER_WORKER_LIMITS,
  failure: () => new Error('The letters worker stopped'),
});

/**
 * Letters on the operator's paper (render-keeper-letters.ts), drawn in a worker thread that stays
 * for the next one: the API keeps answering while a letter is laid out.
 */
export function renderKeeperLettersOffThread(
  letters: readonly KeeperLetterToRender[],
  generatedAt: Date,
  title: string,
): Promise<Uint8Array<ArrayBuffer>> {
  return letterQueue.run({ letters: [...letters], generatedAt, title });
}
