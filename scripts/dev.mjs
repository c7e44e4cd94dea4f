// `npm run dev`: the API on :8000 (restarts on change) and Vite on :5173 proxying /api to it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureInstalled, ensureProjectNode, root } from './ensure-installed.mjs';

ensureInstalled();
ensureProjectNode();
const bin = (name) => join(root, 'node_modules/.bin', name);
const children = [
  spawn(process.execPath, ['--watch', join(root, 'api/src/server.ts')], { cwd: root, stdio: 'inherit' }),
  spawn(bin('vite'), [], { cwd: join(root, 'web'), stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children)
  child.on('exit', () => {
    stop();
    process.exit(0);
  });
