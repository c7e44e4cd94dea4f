import { fileURLToPath } from 'node:url';
import {
  compressorFaults,
  compressorProbeScript,
  compressorWorkerPath,
  uprightPhoneJpeg,
  type CompressorProbe,
} from './compressor-probe.ts';
import { expect, test } from './fixtures.ts';
import { PHOTO_MAX_BYTES } from '../src/lib/photos/photo-fit.ts';

const dist = fileURLToPath(new URL('../dist', import.meta.url));

test('a heavy phone photo held upright comes out upright and under the size limit, in the worker and on the page', async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the compressor does not depend on the screen');
  const photo = uprightPhoneJpeg();
  // The photo really is too big as it comes: the compressor has more to do than resize.
  expect(photo.length).toBeGreaterThan(PHOTO_MAX_BYTES);
  await page.goto('/login');
  // A string, evaluated as it is: the app's policy allows no eval in its own scripts.
  const script = compressorProbeScript(compressorWorkerPath(dist), photo.toString('base64'));
  const probe = (await page.evaluate(`(async () => {${script}})()`)) as CompressorProbe;
  expect(compressorFaults(probe)).toEqual([]);
});
