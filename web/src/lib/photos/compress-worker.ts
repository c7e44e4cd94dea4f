/// <reference lib="webworker" />
// The photo compressor's own worker: browser-image-compression runs here, off the
// page's thread, as the one copy of the library the app downloads. Left to itself the library
// starts a worker of its own by importing a second, separate copy of itself.
import imageCompression from 'browser-image-compression';

export type CompressJob = { file: File; maxWidthOrHeight: number; maxSizeMB: number; initialQuality: number; fileType: string };
export type CompressReply = { kind: 'progress'; percent: number } | { kind: 'done'; blob: Blob } | { kind: 'failed'; message: string };

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (event: MessageEvent<CompressJob>) => {
  const reply = (message: CompressReply) => self.postMessage(message);
  try {
    const { file, ...options } = event.data;
    // Inside a worker the library draws on an OffscreenCanvas; it must not start another worker.
    const blob = await imageCompression(file, {
      ...options,
      useWebWorker: false,
      onProgress: (percent) => reply({ kind: 'progress', percent }),
    });
    reply({ kind: 'done', blob });
  } catch (error) {
    reply({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
  }
};
