import { afterEach, describe, expect, it } from 'vitest';
import type { TestWorkerRequest } from './worker-queue.test-worker.ts';
import { createWorkerQueue, RENDER_WORKER_LIMITS, type WorkerQueue } from './worker-queue.ts';

/**
 * A worker that fails takes only the job it was doing with it: the job sent after runs in a fresh
 * worker, whatever the failed one still reports as it goes. Heap and time are limited as the pack
 * renderer's are (a small heap limit stands in for the real one).
 */
const script = new URL('./worker-queue.test-worker.ts', import.meta.url);
const failure = () => new Error('worker failed');

describe('createWorkerQueue', () => {
  let queue: WorkerQueue<Omit<TestWorkerRequest, 'id'>>;
  afterEach(() => queue.close());

  it('a job sent after a worker crashed is not failed by the crashed worker stopping', async () => {
    queue = createWorkerQueue({ script, name: 'test', limits: RENDER_WORKER_LIMITS, failure });
    await expect(queue.run({ action: 'throw' })).rejects.toThrow();
    const bytes = await queue.run({ action: 'answer' });
    expect(bytes.length).toBe(1);
  }, 30_000);

  it('fails a job that outgrows the heap limit alone, and does the job queued behind it', async () => {
    queue = createWorkerQueue({
      script,
      name: 'test',
      limits: { ...RENDER_WORKER_LIMITS, resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } },
      failure,
    });
    const runaway = queue.run({ action: 'grow' });
    const next = queue.run({ action: 'answer' });
    await expect(runaway).rejects.toThrow('worker failed');
    expect((await next).length).toBe(1);
  }, 60_000);

  it('stops a job that runs past its time limit, and does the job queued behind it', async () => {
    queue = createWorkerQueue({ script, name: 'test', limits: { ...RENDER_WORKER_LIMITS, timeLimitMs: 500 }, failure });
    const hung = queue.run({ action: 'hang' });
    const next = queue.run({ action: 'answer' });
    await expect(hung).rejects.toThrow('worker failed');
    expect((await next).length).toBe(1);
  }, 30_000);
});
