// `npm run build -w web`: builds the web app into a fresh folder beside dist/ and swaps it in
// only when every step has finished, with the marker `npm start` trusts written last. A build
// cut off part way (a closed terminal, a full disk) leaves the last whole build, or none, never
// an index.html without its service worker.
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BUILD_COMPLETE_MARKER } from './build-marker.mjs';

const web = join(import.meta.dirname, '..');
const dist = join(web, 'dist');
const next = join(web, 'dist.next');
const old = join(web, 'dist.old');

rmSync(next, { recursive: true, force: true });
const node = process.execPath;
const vitePackage = createRequire(import.meta.url).resolve('vite/package.json');
const vite = join(dirname(vitePackage), 'bin', 'vite.js');
execFileSync(node, [vite, 'build', '--outDir', next, '--emptyOutDir'], { cwd: web, stdio: 'inherit' });
execFileSync(node, [join(import.meta.dirname, 'move-source-maps.mjs'), next], { stdio: 'inherit' });
execFileSync(node, [join(import.meta.dirname, 'precompress.mjs'), next], { stdio: 'inherit' });
for (const required of ['index.html', 'sw.js']) {
  if (!existsSync(join(next, required))) throw new Error(`the build wrote no ${required}`);
}
writeFileSync(join(next, BUILD_COMPLETE_MARKER), `${new Date().toISOString()}\n`);

rmSync(old, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, old);
renameSync(next, dist);
rmSync(old, { recursive: true, force: true });
