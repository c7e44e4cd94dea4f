// The load generator and Lighthouse, which only the benchmarks use: about half of what a fresh
// clone would download otherwise. They have a package and lockfile of their own (tools/), installed
// the first time a bench asks for them and again whenever that lockfile names other versions.
// The lockfile pins third-party-web, which one of Lighthouse's packages asks for as 'latest': a
// version `npm ci` could never check against a lockfile.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { root } from './bench-utils.ts';

const TOOLS_DIR = join(root, 'scripts/bench/tools');

type Lockfile = { packages: Record<string, { version?: string }> };

/** Whether every tool the lockfile pins is installed at its pinned version. */
function isInstalled(): boolean {
  const lock = JSON.parse(readFileSync(join(TOOLS_DIR, 'package-lock.json'), 'utf8')) as Lockfile;
  const manifest = JSON.parse(readFileSync(join(TOOLS_DIR, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  return Object.keys(manifest.dependencies).every((name) => {
    const installed = join(TOOLS_DIR, 'node_modules', name, 'package.json');
    if (!existsSync(installed)) return false;
    const { version } = JSON.parse(readFileSync(installed, 'utf8')) as { version: string };
    return version === lock.packages[`node_modules/${name}`]?.version;
  });
}

let ensured = false;

export function ensureBenchTools(): void {
  if (ensured || isInstalled()) {
    ensured = true;
    return;
  }
  console.log('Installing the benchmark tools (autocannon, Lighthouse): the first bench only...');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--no-workspaces'], { cwd: TOOLS_DIR, stdio: 'inherit' });
  ensured = true;
}

export function loadAutocannon(): typeof autocannon {
  ensureBenchTools();
  return createRequire(join(TOOLS_DIR, 'package.json'))('autocannon') as typeof autocannon;
}

/** Lighthouse's command line, installed. */
export function lighthouseBin(): string {
  ensureBenchTools();
  return join(TOOLS_DIR, 'node_modules/.bin/lighthouse');
}
