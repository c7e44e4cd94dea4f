// Builds the web app when its output is missing or older than any source it is built from.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { root } from './ensure-installed.mjs';

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function buildWebIfStale({ force = false } = {}) {
  const built = join(root, 'web/dist/index.html');
  const sources = ['web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'shared/src'].map((p) => join(root, p));
  const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
  if (!force && builtAt > 0 && sources.every((s) => newestMtime(s) <= builtAt)) return;
  console.log('Building the web app...');
  execSync('npm run build -w web', { cwd: root, stdio: 'inherit' });
}
