import { Worker } from 'node:worker_threads';
import type { RenderReply, RenderRequest } from './render-worker.ts';

/**
 * Renders evidence packs off the request path, in one worker thread that stays
 * for the next pack: the API keeps answering while a pack is drawn, and packs asked for together
 * queue rather than take every core. The worker is TypeScript like the rest, loaded by Node's
 * own type stripping (docs/decisions/0014-node-24.md), whatever started this process.
 */
let worker: Worker | null = null;
let nextId = 1;
const pending = new Map<number, { resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (error: Error) => void }>();

function startWorker(): Worker {
  const started = new Worker(new URL('./render-worker.ts', import.meta.url));
  started.unref();
  started.on('message', (reply: RenderReply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if ('error' in reply) waiting.reject(new Error(reply.error));
    else waiting.resolve(reply.bytes);
  });
  const fail = (error: Error) => {
    // A crashed worker fails what it held; the next pack starts a new one.
    if (worker === started) worker = null;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.reject(error);
    }
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`The evidence pack worker stopped (exit ${code})`)));
  return started;
}

export function renderEvidencePackOffThread(content: RenderRequest['content']): Promise<Uint8Array<ArrayBuffer>> {
  worker ??= startWorker();
  const id = nextId++;
  const target = worker;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    target.postMessage({ id, content } satisfies RenderRequest);
  });
}
