import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';

/** Real JPEG photos (not 1x1 stubs): a 1200x900 pattern that differs per photo. */
export function writeEvidencePhotos(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const width = 1200;
  const height = 900;
  return [0, 1, 2, 3].map((n) => {
    const data = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const stripe = Math.floor((x + y * (n + 1)) / 60) % 2 === 0;
        data[i] = stripe ? 200 - n * 40 : 40;
        data[i + 1] = stripe ? 60 + n * 40 : 120;
        data[i + 2] = (x * 255) / width;
        data[i + 3] = 255;
      }
    }
    const file = join(dir, `evidence-${n + 1}.jpg`);
    writeFileSync(file, jpeg.encode({ data, width, height }, 80).data);
    return file;
  });
}
