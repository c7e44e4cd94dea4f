import { parentPort } from 'node:worker_threads';
import type { WorkerReply } from './worker-queue.ts';

/**
 * A worker for worker-queue.test.ts, each request naming how it ends: answered, an uncaught
 * exception, a heap that grows without end, or a loop that never returns.
 */
export type TestWorkerRequest = { id: number; action: 'answer' | 'throw' | 'grow' | 'hang' };

parentPort?.on('message', ({ id, action }: TestWorkerRequest) => {
  if (action === 'answer') parentPort!.postMessage({ id, bytes: new Uint8Array([id]) } satisfies WorkerReply);
  if (action === 'throw') throw new Error('the worker crashed');
  if (action === 'grow') {
    const held: string[][] = [];
    for (;;) held.push(Array.from({ length: 10_000 }, (_, index) => `${index}`.repeat(8)));
  }
  if (action === 'hang') for (;;);
});
