/// <reference lib="webworker" />
// The photo compressor's own worker: browser-image-compression runs here, off the
// page's thread, as the one copy of the library the app downloads. Left to itself the library
// starts a worker of its own by importing a second, separate copy of itself.
import imageCompression from 'browser-image-compression';

export type CompressJob = { file: File; maxWidthOrHeight: number; maxSizeMB: number; initialQuality: number; fileType: string };
export type CompressReply = { kind: 'progress'; percent: number } | { kind: 'done'; blob: Blob } | { kind: 'failed'; message: string };

/**
 * The compression itself. Exported so that the page can run this same file where a worker
 * cannot decode (compress-photo.ts): one copy of the library, whichever thread runs it.
 */
export function compressJob(job: CompressJob, onProgress?: (percent: number) => void): Promise<Blob> {
  const { file, ...options } = job;
  // On either thread the library must not start a worker of its own.
  return imageCompression(file, { ...options, useWebWorker: false, onProgress });
}

declare const self: DedicatedWorkerGlobalScope;

// Only as a worker: imported by the page, this file answers no messages.
if (typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope) {
  self.onmessage = async (event: MessageEvent<CompressJob>) => {
    const reply = (message: CompressReply) => self.postMessage(message);
    try {
      reply({ kind: 'done', blob: await compressJob(event.data, (percent) => reply({ kind: 'progress', percent })) });
    } catch (error) {
      reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
}
