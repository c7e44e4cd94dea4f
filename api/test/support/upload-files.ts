import { existsSync, readdirSync } from 'node:fs';
import { isThumbnailFileName, originalOfThumbnail } from '../../src/services/thumbnails.ts';

/**
 * The files of an uploads folder, thumbnails aside (sorted): each thumbnail must sit beside its
 * photo, and one left behind fails the test here, so tests that count photos need not count them.
 */
export function listUploadsFolder(dir: string): string[] {
  const names = existsSync(dir) ? readdirSync(dir).sort() : [];
  return withoutThumbnails(names);
}

/** Names without thumbnails, after checking that every thumbnail's photo is among them. */
export function withoutThumbnails(names: readonly string[]): string[] {
  const strays = names.filter((name) => isThumbnailFileName(name) && !names.includes(originalOfThumbnail(name)));
  if (strays.length > 0) throw new Error(`thumbnails without their photo: ${strays.join(', ')}`);
  return names.filter((name) => !isThumbnailFileName(name));
}
