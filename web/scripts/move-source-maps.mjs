// After `vite build` (build.sourcemap 'hidden': no file names its map): moves every source map
// out of dist/ into source-maps/<build id>/, so the server never serves them, while whoever reads
// an error report (POST /api/client-errors names its build) can still map its stack to the source.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const web = join(import.meta.dirname, '..');
// dist/ unless a folder is named (the build writes into a fresh folder first: build.mjs).
const dist = process.argv[2] ? resolve(process.argv[2]) : join(web, 'dist');
const buildId = readFileSync(join(dist, '.vite', 'build-id'), 'utf8').trim();
const target = join(web, 'source-maps', buildId);
rmSync(target, { recursive: true, force: true });

let moved = 0;
function* maps(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* maps(path);
    else if (entry.name.endsWith('.map')) yield path;
  }
}
for (const path of [...maps(dist)]) {
  const destination = join(target, relative(dist, path));
  mkdirSync(join(destination, '..'), { recursive: true });
  renameSync(path, destination);
  moved++;
}
console.log(`moved ${moved} source maps out of dist to ${relative(web, target)}`);
