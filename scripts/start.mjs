// `npm start`: install if needed, build the web app if stale, then serve web + API on PORT (8000).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureInstalled, ensureProjectNode, root } from './ensure-installed.mjs';

ensureInstalled();
ensureProjectNode();
const { buildWebIfStale } = await import('./build-web.mjs');
buildWebIfStale();

// TypeScript run by Node's own type stripping, as in production (docs/decisions/0014-node-24.md).
const server = spawn(process.execPath, [join(root, 'api/src/server.ts')], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
