import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: a JavaScript module of the start script, without declarations
import { isWebBuildCurrent } from './build-web.mjs';

/**
 * The web build as `npm start` meets it: web/scripts/build.mjs run for real in a scratch tree
 * whose `vite` is a stand-in that writes what it is told and stops where it is told, so a build
 * cut off part way can be made on purpose.
 */
const root = join(import.meta.dirname, '..');
const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

function scratchTree(): string {
  const tree = mkdtempSync(join(tmpdir(), 'parkpatrol-build-'));
  trees.push(tree);
  cpSync(join(root, 'web/scripts'), join(tree, 'web/scripts'), { recursive: true });
  for (const source of ['web/src', 'web/public', 'web/build', 'shared/src']) mkdirSync(join(tree, source), { recursive: true });
  writeFileSync(join(tree, 'web/src/main.tsx'), '');
  const vite = join(tree, 'web/node_modules/vite');
  mkdirSync(join(vite, 'bin'), { recursive: true });
  writeFileSync(join(vite, 'package.json'), JSON.stringify({ name: 'vite', type: 'module' }));
  // `vite build --outDir DIR`: writes the files FAKE_VITE_WRITES names, then exits FAKE_VITE_EXIT.
  writeFileSync(
    join(vite, 'bin/vite.js'),
    `import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
const out = process.argv[process.argv.indexOf('--outDir') + 1];
for (const file of (process.env.FAKE_VITE_WRITES ?? '').split(',').filter(Boolean)) {
  mkdirSync(dirname(join(out, file)), { recursive: true });
  // Long enough for the build's compressed copies to be smaller, and so written.
  writeFileSync(join(out, file), file === '.vite/build-id' ? 'test-build' : 'new ' + file + '\\n' + 'x'.repeat(500));
}
process.exit(Number(process.env.FAKE_VITE_EXIT ?? 0));
`,
  );
  return tree;
}

function build(tree: string, writes: string[], exitCode = 0) {
  return spawnSync(process.execPath, [join(tree, 'web/scripts/build.mjs')], {
    env: { ...process.env, FAKE_VITE_WRITES: writes.join(','), FAKE_VITE_EXIT: String(exitCode) },
    encoding: 'utf8',
  });
}

const WHOLE = ['.vite/build-id', 'index.html', 'sw.js', 'assets/index.js'];

describe('the web build', () => {
  it('swaps in a whole build with its marker, which npm start then trusts', () => {
    const tree = scratchTree();
    expect(isWebBuildCurrent(tree)).toBe(false);
    expect(build(tree, WHOLE).status).toBe(0);
    expect(readFileSync(join(tree, 'web/dist/index.html'), 'utf8')).toMatch(/^new index.html\n/);
    expect(existsSync(join(tree, 'web/dist/index.html.br'))).toBe(true);
    expect(existsSync(join(tree, 'web/dist.next'))).toBe(false);
    expect(isWebBuildCurrent(tree)).toBe(true);
  });

  it('keeps the last whole build when a build stops after index.html, and npm start builds again', () => {
    const tree = scratchTree();
    expect(build(tree, WHOLE).status).toBe(0);
    writeFileSync(join(tree, 'web/dist/index.html'), 'last whole build');

    const cutOff = build(tree, ['.vite/build-id', 'index.html'], 1);
    expect(cutOff.status).not.toBe(0);
    expect(readFileSync(join(tree, 'web/dist/index.html'), 'utf8')).toBe('last whole build');
    expect(existsSync(join(tree, 'web/dist/sw.js'))).toBe(true);

    // A source edited after the last whole build: not current, so npm start builds.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(tree, 'web/src/main.tsx'), later, later);
    expect(isWebBuildCurrent(tree)).toBe(false);
  });

  it('refuses a build that finished without a service worker, and serves nothing half-made', () => {
    const tree = scratchTree();
    const result = build(tree, ['.vite/build-id', 'index.html']);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('the build wrote no sw.js');
    expect(existsSync(join(tree, 'web/dist'))).toBe(false);
    expect(isWebBuildCurrent(tree)).toBe(false);
  });

  it('does not trust a dist/ without the marker, however new its index.html', () => {
    const tree = scratchTree();
    mkdirSync(join(tree, 'web/dist'), { recursive: true });
    writeFileSync(join(tree, 'web/dist/index.html'), 'from an interrupted build of an older release');
    expect(isWebBuildCurrent(tree)).toBe(false);
  });
});
