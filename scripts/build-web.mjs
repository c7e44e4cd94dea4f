// Builds the web app when it has no whole build or one older than any source it is built from.
// A build is whole when its marker is there: web/scripts/build.mjs writes it last, after
// index.html, the service worker and the compressed copies, and swaps the folder in.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './ensure-installed.mjs';
import { BUILD_COMPLETE_MARKER } from '../web/scripts/build-marker.mjs';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** Whether web/dist holds a whole build newer than every source (see above). */
export function isWebBuildCurrent(tree = root) {
  const marker = join(tree, 'web/dist', BUILD_COMPLETE_MARKER);
  if (!existsSync(marker)) return false;
  const builtAt = statSync(marker).mtimeMs;
  const sources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'web/build', 'shared/src'].map((p) => join(tree, p));
  return sources.every((s) => newestMtime(s) <= builtAt);
}

export function buildWebIfStale({ force = false } = {}) {
  if (!force && isWebBuildCurrent()) return;
  console.log('Building the web app...');
  execSync('npm run build -w web', { cwd: root, stdio: 'inherit' });
}
