import { parentPort } from 'node:worker_threads';
import { renderEvidencePack, type EvidencePackContent } from './render-evidence-pack.ts';

/**
 * The evidence pack's drawing, in a worker thread (render-off-thread.ts): PDF layout and image
 * embedding are CPU work, and on the request thread they stopped every other request while a
 * pack was made.
 */
export type RenderRequest = { id: number; content: Omit<EvidencePackContent, 'auditContext'> & { carParkNames: Record<string, string> } };
export type RenderReply = { id: number; bytes: Uint8Array<ArrayBuffer> } | { id: number; error: string };

// Each request answers for itself, its errors included: nothing here can reject.
parentPort?.on('message', (request: RenderRequest) => void render(request));

async function render({ id, content }: RenderRequest): Promise<void> {
  try {
    const { carParkNames, ...rest } = content;
    const bytes = await renderEvidencePack({ ...rest, auditContext: { carParkName: (carParkId) => carParkNames[carParkId] } });
    parentPort!.postMessage({ id, bytes } satisfies RenderReply, [bytes.buffer]);
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) } satisfies RenderReply);
  }
}
