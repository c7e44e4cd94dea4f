import { SERVER_MESSAGES } from '@parkpatrol/shared';
import { AppError } from '../../http/app-error.ts';
import { createWorkerQueue, RENDER_WORKER_LIMITS, type WorkerLimits } from '../worker-queue.ts';
import type { RenderRequest } from './render-worker.ts';

/**
 * Renders evidence packs off the request path, in one worker thread that stays for the next pack
 * (services/worker-queue.ts): one pack at a time, with a heap limit and a time limit (decision
 * 0028). A pack that goes past either fails alone with EVIDENCE_PACK_FAILED, and the next pack in
 * the queue starts a fresh worker.
 */
export type PackRendererOptions = WorkerLimits;

export const PACK_RENDERER_LIMITS: PackRendererOptions = RENDER_WORKER_LIMITS;

export type PackRenderer = {
  render(content: RenderRequest['content']): Promise<Uint8Array<ArrayBuffer>>;
  /** Stops the worker; packs waiting fail. */
  close(): Promise<void>;
};

export function createPackRenderer(options: PackRendererOptions = PACK_RENDERER_LIMITS): PackRenderer {
  const queue = createWorkerQueue<Omit<RenderRequest, 'id'>>({
    script: new URL('./render-worker.ts', import.meta.url),
    name: 'evidence-pack',
    limits: options,
    failure: () => new AppError('EVIDENCE_PACK_FAILED', SERVER_MESSAGES.evidencePackFailed),
  });
  return { render: (content) => queue.run({ content }), close: () => queue.close() };
}

/** The process's one pack renderer, started with the first pack. */
let shared: PackRenderer | null = null;

export function renderEvidencePackOffThread(content: RenderRequest['content']): Promise<Uint8Array<ArrayBuffer>> {
  shared ??= createPackRenderer();
  return shared.render(content);
}
