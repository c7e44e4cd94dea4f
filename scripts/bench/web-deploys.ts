// What a deploy costs a phone that already has the officer app: the web app built in a scratch
// copy as it is, then once per one-screen change, and each build compared with the first.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { officerFiles, readBuildManifest } from '../../web/build/officer-precache.ts';
import { root } from './bench-utils.ts';

/** What a phone downloads for one deploy: the changed files and their bytes as served. */
export type DeployCost = { files: string[]; bytes: number };
export type DeployCosts = { officerScreen: DeployCost; adminScreen: DeployCost; wholeAppBytes: number };

/** One class name changed in one screen's source, as a one-line fix would. */
type ScreenChange = { file: string; from: string; to: string };

const OFFICER_SCREEN: ScreenChange = {
  file: 'web/src/features/pcns/pcn-detail.tsx',
  from: 'className="evidence-grid"',
  to: 'className="evidence-grid evidence-grid--v2"',
};
const ADMIN_SCREEN: ScreenChange = {
  file: 'web/src/features/admin/manage-users/manage-users-screen.tsx',
  from: 'className="menu-popover"',
  to: 'className="menu-popover menu-popover--v2"',
};

/**
 * This checkout's installed packages for a copy of a checkout at `dir`, except the workspace's
 * own package: @parkpatrol/shared must be the copy's, not this checkout's.
 */
function linkDependencies(dir: string) {
  const modules = join(dir, 'node_modules');
  mkdirSync(join(modules, '@parkpatrol'), { recursive: true });
  for (const name of readdirSync(join(root, 'node_modules'))) {
    if (name !== '@parkpatrol') symlinkSync(join(root, 'node_modules', name), join(modules, name));
  }
  symlinkSync(join(dir, 'shared'), join(modules, '@parkpatrol', 'shared'));
}

/** Bytes the server sends for a built file: its brotli copy where the build wrote one. */
const served = (dir: string, file: string) =>
  existsSync(join(dir, `${file}.br`)) ? statSync(join(dir, `${file}.br`)).size : statSync(join(dir, file)).size;

/** The service worker's precache list: url to revision (null for hashed names). */
function precached(dir: string): Map<string, string> {
  const sw = readFileSync(join(dir, 'sw.js'), 'utf8');
  return new Map([...sw.matchAll(/\{"revision":(null|"[^"]*"),"url":"([^"]+)"\}/g)].map((m) => [m[2]!, m[1]!]));
}

const officerPath = (dir: string) => officerFiles(readBuildManifest(dir));

/**
 * What a phone holding build `before` downloads to have build `after`: sw.js if it changed (the
 * browser compares it byte for byte), each changed precache entry, and any file of the officer
 * path the first build did not have (a changed hash is a new name).
 */
function deployCost(before: string, after: string): DeployCost {
  const old = precached(before);
  const oldOfficer = officerPath(before);
  const changed = new Set([...precached(after)].filter(([url, revision]) => old.get(url) !== revision).map(([url]) => url));
  for (const file of officerPath(after)) if (!oldOfficer.has(file)) changed.add(file);
  const swChanged = !readFileSync(join(before, 'sw.js')).equals(readFileSync(join(after, 'sw.js')));
  const files = [...(swChanged ? ['sw.js'] : []), ...[...changed].sort()];
  return { files, bytes: files.reduce((sum, file) => sum + served(after, file), 0) };
}

/**
 * The web app of `tree` built three times in a scratch copy: as it is, with one class name
 * changed on the PCN detail screen (an officer screen), and with one changed on the users
 * screen (an admin screen) instead. Every build gets its own build id, as each deploy does.
 */
export function measureDeploys(tree: string): DeployCosts {
  const scratch = mkdtempSync(join(tmpdir(), 'parkpatrol-update-'));
  try {
    for (const dir of ['web', 'shared']) {
      cpSync(join(tree, dir), join(scratch, dir), {
        recursive: true,
        filter: (src) => !/[\\/](node_modules|dist|test-results|e2e)([\\/]|$)/.test(src.slice(tree.length)),
      });
    }
    cpSync(join(tree, 'tsconfig.base.json'), join(scratch, 'tsconfig.base.json'));
    linkDependencies(scratch);
    const build = (name: string, change?: ScreenChange) => {
      const out = join(scratch, name);
      const source = change && join(scratch, change.file);
      const original = source && readFileSync(source, 'utf8');
      if (source && original !== undefined) {
        if (!original.includes(change.from)) throw new Error(`${change.file} no longer has ${change.from}`);
        writeFileSync(source, original.replace(change.from, change.to));
      }
      try {
        const result = spawnSync(join(root, 'node_modules/.bin/vite'), ['build', '--outDir', out, '--emptyOutDir'], {
          cwd: join(scratch, 'web'),
          encoding: 'utf8',
          env: { ...process.env, BUILD_ID: `bench-${name}` },
        });
        if (result.status !== 0) throw new Error(`vite build failed: ${result.stderr}`);
        const precompress = join(scratch, 'web', 'scripts', 'precompress.mjs');
        if (existsSync(precompress)) execFileSync(process.execPath, [precompress, out]);
      } finally {
        if (source && original !== undefined) writeFileSync(source, original);
      }
      return out;
    };
    const before = build('before');
    const officer = build('officer', OFFICER_SCREEN);
    const admin = build('admin', ADMIN_SCREEN);
    return {
      officerScreen: deployCost(before, officer),
      adminScreen: deployCost(before, admin),
      wholeAppBytes: ['sw.js', ...precached(before).keys()].reduce((sum, file) => sum + served(before, file), 0),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
