// Installs dependencies when a fresh clone has none, so `npm start` and `npm test` work alone.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function ensureInstalled() {
  const markers = ['node_modules/better-sqlite3/build', 'node_modules/vite', 'node_modules/hono', 'node_modules/@playwright/test'];
  if (markers.every((m) => existsSync(join(root, m)))) return;
  console.log('Installing dependencies (first run)...');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}
