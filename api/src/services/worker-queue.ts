import { Worker, type ResourceLimits } from 'node:worker_threads';

/**
 * One worker thread that stays for the next job, for CPU work (an evidence pack's or a letter's
 * drawing) kept off the request path: the API keeps answering while it runs, and jobs asked for
 * together queue rather than take every core. The worker is TypeScript like the rest, loaded by
 * Node's own type stripping (docs/decisions/0014-node-24.md), whatever started this process.
 *
 * One job is in the worker at a time, with a heap limit and a time limit (decision 0028): a job
 * that goes past either has its worker stopped and fails alone, and the next job in the queue
 * starts a fresh worker. A job belongs to the worker it was sent to, so what a stopped worker
 * reports afterwards (its 'exit' follows its 'error') fails nothing sent to the next one. The
 * heap limit bounds the JavaScript heap only; decoded image buffers are ArrayBuffers outside it,
 * bounded by the pack's pixel budget (MAX_PACK_PNG_PIXELS, render-evidence-pack.ts).
 *
 * The worker answers each `{ id, ...request }` with `{ id, bytes }` or `{ id, error }`.
 */
export type WorkerReply = { id: number; bytes: Uint8Array<ArrayBuffer> } | { id: number; error: string };

export type WorkerLimits = {
  /** A pack's layout, fonts and audit trail take about 15 MB of heap, a letter less; 128 MB is room for the largest, and keeps a runaway off the API's own heap. */
  resourceLimits: ResourceLimits;
  /** A pack of ten photos or a letter is drawn in seconds; a job still running after this is holding every job behind it up. */
  timeLimitMs: number;
};

export const RENDER_WORKER_LIMITS: WorkerLimits = {
  resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  timeLimitMs: 120_000,
};

export type WorkerQueue<Request> = {
  run(request: Request): Promise<Uint8Array<ArrayBuffer>>;
  /** Stops the worker; jobs waiting fail. */
  close(): Promise<void>;
};

type Job<Request> = { request: Request; resolve: (bytes: Uint8Array<ArrayBuffer>) => void; reject: (error: Error) => void };

export function createWorkerQueue<Request extends object>(options: {
  script: URL;
  name: string;
  limits: WorkerLimits;
  /** The error a job fails with when its worker is stopped or crashes. */
  failure: () => Error;
}): WorkerQueue<Request> {
  let worker: Worker | null = null;
  let nextId = 1;
  const queue: Job<Request>[] = [];
  let running: (Job<Request> & { id: number; worker: Worker; timer: NodeJS.Timeout }) | null = null;

  const settle = (outcome: { bytes: Uint8Array<ArrayBuffer> } | { error: Error }) => {
    const job = running;
    if (!job) return;
    running = null;
    clearTimeout(job.timer);
    if ('bytes' in outcome) job.resolve(outcome.bytes);
    else job.reject(outcome.error);
    pump();
  };

  function startWorker(): Worker {
    const started = new Worker(options.script, { name: options.name, resourceLimits: options.limits.resourceLimits });
    started.unref();
    started.on('message', (reply: WorkerReply) => {
      if (running?.id !== reply.id) return;
      settle('error' in reply ? { error: new Error(reply.error) } : { bytes: reply.bytes });
    });
    // Out of heap ('error', ERR_WORKER_OUT_OF_MEMORY), an uncaught exception ('error'), stopped by
    // the time limit or crashed ('exit'): only the job this worker was running fails.
    const fail = () => {
      if (worker === started) worker = null;
      if (running?.worker === started) settle({ error: options.failure() });
    };
    started.on('error', fail);
    started.on('exit', fail);
    return started;
  }

  function pump(): void {
    if (running) return;
    const job = queue.shift();
    if (!job) return;
    const target = (worker ??= startWorker());
    const id = nextId++;
    const timer = setTimeout(() => void target.terminate(), options.limits.timeLimitMs);
    timer.unref();
    running = { ...job, id, worker: target, timer };
    target.postMessage({ ...job.request, id });
  }

  return {
    run(request) {
      return new Promise((resolve, reject) => {
        queue.push({ request, resolve, reject });
        pump();
      });
    },
    async close() {
      const stopping = worker;
      worker = null;
      for (const job of queue.splice(0)) job.reject(options.failure());
      if (stopping) await stopping.terminate();
    },
  };
}
