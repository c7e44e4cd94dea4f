import { parentPort } from 'node:worker_threads';
import type { WorkerReply } from '../worker-queue.ts';
import { renderKeeperLetters, type KeeperLetterToRender } from './render-keeper-letters.ts';

/**
 * Letters drawn in a worker thread (render-off-thread.ts): laying out a letter with its QR code
 * takes most of a second of CPU, and on the request thread it stopped every other request.
 */
export type LetterRenderRequest = { id: number; letters: KeeperLetterToRender[]; generatedAt: Date; title: string };

// Each request answers for itself, its errors included: nothing here can reject.
parentPort?.on('message', (request: LetterRenderRequest) => void render(request));

async function render({ id, letters, generatedAt, title }: LetterRenderRequest): Promise<void> {
  try {
    const drawn = await renderKeeperLetters(letters, generatedAt, title);
    // A buffer of its own, so it can be handed over rather than copied.
    const bytes = new Uint8Array(drawn);
    parentPort!.postMessage({ id, bytes } satisfies WorkerReply, [bytes.buffer]);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies WorkerReply);
  }
}
