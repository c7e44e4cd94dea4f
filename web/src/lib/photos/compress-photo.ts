import imageCompression from 'browser-image-compression';
// The library's web worker imports the library by URL, from a public CDN unless told otherwise;
// offline that fails. `?url` makes Vite emit our own copy, which the service worker precaches.
import compressionLibraryUrl from 'browser-image-compression/dist/browser-image-compression.js?url';
import { readJpegCaptureTime } from './read-capture-time.ts';

/** Design section 9: a 4000x3000 photo stored at about 0.5 MB, plates still readable. */
export const PHOTO_MAX_SIDE_PX = 2048;
export const PHOTO_MAX_SIZE_MB = 0.7;

export type CompressedPhoto = {
  bytes: ArrayBuffer;
  type: string;
  name: string;
  size: number;
  /** ISO capture time: EXIF DateTimeOriginal, else the moment the photo was added. */
  takenAt: string;
  takenAtSource: 'camera' | 'added';
};

export async function compressPhoto(file: File, options: { onProgress?: (percent: number) => void; now?: () => number } = {}): Promise<CompressedPhoto> {
  const now = options.now ?? Date.now;
  const original = await file.arrayBuffer();
  const cameraTime = readJpegCaptureTime(original);
  // Without EXIF the only honest time is "added to the form"; a file's date may be a copy's.
  const takenAt = cameraTime ?? new Date(now()).toISOString();
  const compressed = await imageCompression(file, {
    maxWidthOrHeight: PHOTO_MAX_SIDE_PX,
    maxSizeMB: PHOTO_MAX_SIZE_MB,
    initialQuality: 0.8,
    useWebWorker: true,
    libURL: new URL(compressionLibraryUrl, globalThis.location?.href).href,
    // JPEG out whatever came in: small, and accepted by every browser that shows the evidence.
    fileType: 'image/jpeg',
    onProgress: options.onProgress,
  });
  // A file already smaller than the target comes back as it was; still JPEG, PNG or WebP.
  const bytes = await compressed.arrayBuffer();
  const type = compressed.type || file.type || 'image/jpeg';
  return { bytes, type, name: renameForType(file.name, type), size: bytes.byteLength, takenAt, takenAtSource: cameraTime ? 'camera' : 'added' };
}

function renameForType(name: string, type: string): string {
  const base = name.replace(/\.[^.]+$/, '') || 'photo';
  const extension = type === 'image/png' ? 'png' : type === 'image/webp' ? 'webp' : 'jpg';
  return `${base}.${extension}`;
}
