// Draws the PWA icons (web/public/icons, web/public/apple-touch-icon.png) with pngjs, so the
// installable app has real, crisp PNGs without a design tool: a red rounded square (the
// design's primary colour) with a white "P". Run: node scripts/generate-pwa-icons.mjs
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PNG } from 'pngjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const RED = [0xc6, 0x28, 0x28];
const WHITE = [0xff, 0xff, 0xff];
const SAMPLES = 4; // 4x4 supersampling for smooth edges

/** Inside a rounded rectangle (x0,y0)-(x1,y1) with corner radius r? */
function inRoundedRect(x, y, x0, y0, x1, y1, r) {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/** The letter P in a unit box (u across, v down): a stem and a bowl with a hole. */
function inLetterP(u, v) {
  const stem = u >= 0 && u <= 0.3 && v >= 0 && v <= 1;
  const bowl = inRoundedRect(u, v, 0, 0, 0.86, 0.62, 0.28);
  const hole = inRoundedRect(u, v, 0.3, 0.19, 0.58, 0.43, 0.1);
  return stem || (bowl && !hole);
}

function inPlus(u, v) {
  return (u >= 0.38 && u <= 0.62 && v >= 0 && v <= 1) || (v >= 0.38 && v <= 0.62 && u >= 0 && u <= 1);
}

/**
 * size: pixels; background: 'rounded' (transparent corners), 'full' (maskable and Apple, which
 * crop themselves) or 'circle'; glyph: fraction of the size the glyph is tall.
 */
function drawIcon({ size, background, glyphHeight, glyph = inLetterP, glyphAspect = 0.86 }) {
  const png = new PNG({ width: size, height: size });
  const glyphH = size * glyphHeight;
  const glyphW = glyphH * glyphAspect;
  const gx = (size - glyphW) / 2 + glyphW * 0.04;
  const gy = (size - glyphH) / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      let bg = 0;
      let fg = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const px = x + (sx + 0.5) / SAMPLES;
          const py = y + (sy + 0.5) / SAMPLES;
          const inBackground =
            background === 'full' ||
            (background === 'rounded' && inRoundedRect(px, py, 0, 0, size, size, size * 0.2)) ||
            (background === 'circle' && (px - size / 2) ** 2 + (py - size / 2) ** 2 <= (size / 2) ** 2);
          if (!inBackground) continue;
          bg++;
          if (glyph((px - gx) / glyphW, (py - gy) / glyphH)) fg++;
        }
      }
      const total = SAMPLES * SAMPLES;
      const i = (y * size + x) * 4;
      const f = bg === 0 ? 0 : fg / bg;
      for (let c = 0; c < 3; c++) png.data[i + c] = Math.round(RED[c] * (1 - f) + WHITE[c] * f);
      png.data[i + 3] = Math.round((bg / total) * 255);
    }
  }
  return PNG.sync.write(png);
}

const outputs = [
  ['web/public/icons/icon-192.png', { size: 192, background: 'rounded', glyphHeight: 0.56 }],
  ['web/public/icons/icon-512.png', { size: 512, background: 'rounded', glyphHeight: 0.56 }],
  // Maskable: the launcher may crop to a circle of 80% of the size; the P stays well inside.
  ['web/public/icons/maskable-192.png', { size: 192, background: 'full', glyphHeight: 0.42 }],
  ['web/public/icons/maskable-512.png', { size: 512, background: 'full', glyphHeight: 0.42 }],
  ['web/public/icons/shortcut-new-pcn-96.png', { size: 96, background: 'circle', glyphHeight: 0.46, glyph: inPlus, glyphAspect: 1 }],
  // iOS rounds the corners itself and shows transparency as black: a full square.
  ['web/public/apple-touch-icon.png', { size: 180, background: 'full', glyphHeight: 0.5 }],
  ['web/public/favicon-32.png', { size: 32, background: 'rounded', glyphHeight: 0.62 }],
];

for (const [path, options] of outputs) {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, drawIcon(options));
  console.log(`wrote ${path}`);
}
