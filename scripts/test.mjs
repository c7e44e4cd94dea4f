// `npm test`: every suite. Typecheck and lint first (cheap), then unit and API tests (vitest),
// then the browser journeys (Playwright on Debian's Chromium against the real built app + API).
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureInstalled, root } from './ensure-installed.mjs';

ensureInstalled();
const { buildWebIfStale } = await import('./build-web.mjs');

function run(title, command, cwd = root) {
  console.log(`\n=== ${title} ===`);
  execSync(command, { cwd, stdio: 'inherit', env: process.env });
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}. Install Debian's chromium package or set CHROMIUM_PATH.`);
  process.exit(1);
}

run('typecheck', 'npm run typecheck --silent');
run('lint', 'npm run lint --silent');
run('unit and API tests (vitest)', 'npx vitest run');
run('evidence pack rendered to PNG (artifact)', 'node scripts/render-evidence-pack.mjs');
buildWebIfStale({ force: true });
run('browser tests (playwright)', 'npx playwright test', `${root}/web`);
