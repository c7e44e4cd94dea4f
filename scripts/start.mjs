// `npm start`: install if needed, build the web app if stale, then serve web + API on PORT (8000).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureInstalled, root } from './ensure-installed.mjs';

ensureInstalled();
const { buildWebIfStale } = await import('./build-web.mjs');
buildWebIfStale();

const tsx = join(root, 'node_modules/.bin/tsx');
const server = spawn(tsx, [join(root, 'api/src/server.ts')], { cwd: root, stdio: 'inherit', env: process.env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
