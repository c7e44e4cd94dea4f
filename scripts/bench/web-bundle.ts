// `npm run bench:web`: gzipped JavaScript per route group, from the Vite build manifest. The
// officer path (sign-in, dashboard, list, detail, form) has a budget of 150 KB gzipped (design
// section 9); admin and account screens load lazily and are reported on their own.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { execSync } from 'node:child_process';
import { root, formatTable } from './bench-utils.ts';

export const OFFICER_BUDGET_BYTES = 150 * 1024;

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
export type BundleGroup = { name: string; files: string[]; rawBytes: number; gzipBytes: number };

// Lazy screens that are not the officer's: the admin area, and account screens used once
// (profile, password reset, the onboarding link). Every other chunk is on the officer path,
// including what it loads lazily, such as the photo compressor.
const ADMIN_SOURCES = /^src\/features\/admin\//;
const ACCOUNT_SOURCES = /^src\/features\/(profile|password-reset|access-link)\//;

export function measureWebBundle(distDir = join(root, 'web', 'dist')): { groups: BundleGroup[]; officerOverBudget: boolean } {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const staticClosure = (keys: string[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const imported of manifest[key]?.imports ?? []) visit(imported);
    };
    keys.forEach(visit);
    return seen;
  };
  const entries = Object.keys(manifest).filter((k) => manifest[k]?.isEntry);
  const dynamic = Object.keys(manifest).filter((k) => manifest[k]?.isDynamicEntry);
  const sourceOf = (k: string) => manifest[k]?.src ?? k;
  const isOfficer = (k: string) => !ADMIN_SOURCES.test(sourceOf(k)) && !ACCOUNT_SOURCES.test(sourceOf(k));
  const officer = staticClosure([...entries, ...dynamic.filter(isOfficer)]);
  const admin = staticClosure(dynamic.filter((k) => ADMIN_SOURCES.test(sourceOf(k))));
  const rest = staticClosure(dynamic.filter((k) => ACCOUNT_SOURCES.test(sourceOf(k))));
  const group = (name: string, keys: Set<string>, exclude: Set<string>[] = []): BundleGroup => {
    const files = [...keys]
      .filter((k) => !exclude.some((e) => e.has(k)))
      .map((k) => manifest[k]?.file ?? '')
      .filter((f) => f.endsWith('.js'));
    let rawBytes = 0;
    let gzipBytes = 0;
    for (const file of files) {
      const bytes = readFileSync(join(distDir, file));
      rawBytes += bytes.length;
      gzipBytes += gzipSync(bytes, { level: 9 }).length;
    }
    return { name, files, rawBytes, gzipBytes };
  };
  const groups = [
    group('officer path (entry + officer screens)', officer),
    group('admin screens (lazy, beyond the officer path)', admin, [officer]),
    group('account screens: profile, password reset, access link (lazy)', rest, [officer, admin]),
  ];
  return { groups, officerOverBudget: (groups[0]?.gzipBytes ?? 0) > OFFICER_BUDGET_BYTES };
}

export function formatBundleGroups(groups: BundleGroup[]): string {
  return formatTable(
    ['route group', 'files', 'raw KB', 'gzip KB'],
    groups.map((g) => [g.name, g.files.length, (g.rawBytes / 1024).toFixed(1), (g.gzipBytes / 1024).toFixed(1)]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (!existsSync(join(root, 'web', 'dist', '.vite', 'manifest.json'))) execSync('npm run build -w web', { cwd: root, stdio: 'inherit' });
  const { groups, officerOverBudget } = measureWebBundle();
  console.log(formatBundleGroups(groups));
  console.log(`\nOfficer path budget: ${OFFICER_BUDGET_BYTES / 1024} KB gzipped: ${officerOverBudget ? 'OVER BUDGET' : 'within budget'}`);
  if (officerOverBudget) process.exitCode = 1;
}
