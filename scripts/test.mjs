// `npm test`: every suite. Typecheck and lint first (cheap, side by side), then unit and API tests (vitest)
// and the API tests again on PostgreSQL, with the officer's core journeys in WebKitGTK and Firefox
// ESR (web/engines/) beside them, then the browser journeys (Playwright on Debian's Chromium against
// the real built app + API).
import { execSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureInstalled, ensureProjectNode, root } from './ensure-installed.mjs';
import { ensureDebianPackages } from './services/service-utils.mjs';

ensureInstalled();
ensureProjectNode();
const { buildWebIfStale } = await import('./build-web.mjs');

function run(title, command, cwd = root) {
  console.log(`\n=== ${title} ===`);
  execSync(command, { cwd, stdio: 'inherit', env: process.env });
}

/**
 * Starts a suite beside the others (it shares no port and no browser with them); its output is
 * held and printed whole when it ends, so the logs do not interleave. Resolves, or rejects with
 * the suite's exit code.
 */
function runBeside(title, command) {
  const child = spawn(command, { cwd: root, shell: true, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve, reject) => {
    child.on('close', (code) => {
      console.log(`\n=== ${title} (ran beside the suites above) ===`);
      process.stdout.write(Buffer.concat(output));
      if (code === 0) resolve();
      else reject(new Error(`${title} failed (exit ${code})`));
    });
  });
}

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// A fresh machine does not stop here: as root with apt, Debian's chromium is installed (as the
// test servers install postgresql and radosgw); otherwise the one command to run is named.
try {
  if (!process.env.CHROMIUM_PATH) ensureDebianPackages({ what: 'Chromium', packages: ['chromium'], present: () => existsSync(chromium) });
} catch (error) {
  console.error(`${error.message} Or set CHROMIUM_PATH to a Chromium.`);
  process.exit(1);
}
if (!existsSync(chromium)) {
  console.error(`Chromium not found at ${chromium}. Install Debian's chromium package or set CHROMIUM_PATH.`);
  process.exit(1);
}

// The officer's journeys in the other engines (Debian's WebKitGTK and Firefox ESR, under Xvfb).
const ENGINE_BINARIES = ['/usr/bin/WebKitWebDriver', '/usr/bin/firefox-esr', '/usr/bin/Xvfb'];
try {
  ensureDebianPackages({
    what: 'WebKitGTK and Firefox ESR',
    // libgl1-mesa-dri (a recommendation, so not installed by default): WebKit's software GL under Xvfb.
    packages: ['webkit2gtk-driver', 'firefox-esr', 'xvfb', 'xauth', 'libgl1-mesa-dri', 'fonts-dejavu-core'],
    present: () => ENGINE_BINARIES.every((path) => existsSync(path)),
  });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// The worked examples on a faked clock (api/test/faked-clock.test.ts) run the server under
// Debian's libfaketime.
try {
  ensureDebianPackages({
    what: 'faketime',
    packages: ['faketime'],
    present: () => ['x86_64-linux-gnu', 'aarch64-linux-gnu'].some((arch) => existsSync(`/usr/lib/${arch}/faketime/libfaketimeMT.so.1`)),
  });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

// Each takes one core (tsc and eslint are single-threaded): side by side, a minute sooner.
const typecheck = runBeside('typecheck', 'npm run typecheck --silent');
typecheck.catch(() => undefined);
run('lint', 'npm run lint --silent');
try {
  await typecheck;
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
buildWebIfStale({ force: true });
// WebKitGTK and Firefox ESR beside both API suites: they share no port or browser, and the
// journeys spend most of their six minutes waiting (an observation's grace, the outbox's
// return), about 15% of two cores. Beside the PostgreSQL suite alone they outlasted it.
const engines = runBeside('browser journeys in WebKitGTK and Firefox ESR', 'npm run test:engines --silent');
engines.catch(() => undefined);
run('unit and API tests (vitest)', 'npx vitest run');
// The same API suite on a throwaway PostgreSQL; the browser journeys stay on SQLite.
run('API tests on PostgreSQL', 'npm run test:postgres --silent');
run('evidence pack rendered to PNG (artifact)', 'node scripts/render-evidence-pack.mjs');
try {
  await engines;
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
run('browser tests (playwright)', 'npx playwright test', `${root}/web`);
