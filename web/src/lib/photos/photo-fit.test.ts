import { describe, expect, it } from 'vitest';
import { fitWithin, LOWEST_JPEG_QUALITY, MOST_ATTEMPTS, nextAttempt, type PhotoAttempt } from './photo-fit.ts';

describe('fitWithin', () => {
  it('brings a 12-megapixel camera photo to 2048 on its longer side, either way up', () => {
    expect(fitWithin(4000, 3000, 2048)).toEqual({ width: 2048, height: 1536 });
    expect(fitWithin(3000, 4000, 2048)).toEqual({ width: 1536, height: 2048 });
  });

  it('never enlarges a small photo', () => {
    expect(fitWithin(1200, 900, 2048)).toEqual({ width: 1200, height: 900 });
  });

  it('draws nothing before a camera’s video has a size', () => {
    expect(fitWithin(0, 0, 2048)).toEqual({ width: 0, height: 0 });
  });

  it('keeps a sliver at least a pixel wide', () => {
    expect(fitWithin(10_000, 2, 2048)).toEqual({ width: 2048, height: 1 });
  });
});

describe('nextAttempt', () => {
  const first: PhotoAttempt = { width: 2048, height: 1536, quality: 0.8 };

  it('stops as soon as a photo fits', () => {
    expect(nextAttempt(first, 700_000, 700_000, 1)).toBeNull();
  });

  it('lowers the quality to its floor before giving up any pixels', () => {
    const qualities: number[] = [];
    let attempt: PhotoAttempt | null = first;
    let made = 1;
    while (attempt && attempt.width === first.width) {
      qualities.push(attempt.quality);
      attempt = nextAttempt(attempt, 2_000_000, 700_000, made++);
    }
    expect(qualities).toEqual([0.8, 0.68, 0.58, 0.5]);
    expect(attempt).toEqual({ width: 1741, height: 1306, quality: LOWEST_JPEG_QUALITY });
  });

  it('gives up after its last attempt, whatever the size: the smallest made is kept', () => {
    expect(nextAttempt({ ...first, quality: LOWEST_JPEG_QUALITY }, 2_000_000, 700_000, MOST_ATTEMPTS)).toBeNull();
  });
});
