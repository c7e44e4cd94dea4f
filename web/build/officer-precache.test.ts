import { describe, expect, it } from 'vitest';
import { keepOfficerFiles, officerFiles, type ViteManifest } from './officer-precache.ts';

const manifest: ViteManifest = {
  'index.html': {
    file: 'assets/index-a.js',
    isEntry: true,
    imports: ['_react-b.js'],
    dynamicImports: [
      'src/features/pcns/pcn-detail.tsx',
      'src/features/admin/manage-pcns/manage-pcns-screen.tsx',
      '_charge-api-g.js',
      '_outbox-h.js',
    ],
    css: ['assets/index-a.css'],
  },
  '_react-b.js': { file: 'assets/react-b.js' },
  'src/features/pcns/pcn-detail.tsx': { file: 'assets/pcn-detail-c.js', imports: ['_card-d.js'] },
  '_card-d.js': { file: 'assets/card-d.js' },
  'src/features/admin/manage-pcns/manage-pcns-screen.tsx': {
    file: 'assets/manage-pcns-e.js',
    imports: ['_card-d.js', '_table-f.js'],
    css: ['assets/admin-e.css'],
  },
  '_table-f.js': { file: 'assets/table-f.js' },
  // Shared chunks the entry loads lazily: one holds only the motorist's sources, one an officer's too.
  '_charge-api-g.js': {
    file: 'assets/charge-api-g.js',
    sources: ['src/features/charge/charge-api.ts', 'src/features/charge/lookup-check.ts'],
  },
  '_outbox-h.js': { file: 'assets/outbox-h.js', sources: ['src/features/charge/charge-texts.ts', 'src/features/outbox/outbox-runtime.ts'] },
};

describe('the officer precache', () => {
  it('follows imports from index.html, leaving out admin screens and what only they import', () => {
    expect([...officerFiles(manifest)].sort()).toEqual([
      'assets/card-d.js',
      'assets/index-a.css',
      'assets/index-a.js',
      'assets/outbox-h.js',
      'assets/pcn-detail-c.js',
      'assets/react-b.js',
    ]);
  });

  it('follows a lazily loaded shared chunk whose sources it does not know', () => {
    const { sources: _, ...unknown } = manifest['_charge-api-g.js']!;
    expect(officerFiles({ ...manifest, '_charge-api-g.js': unknown })).toContain('assets/charge-api-g.js');
  });

  it('keeps pages, icons and the manifest, and drops admin-only code and styles', () => {
    const entries = [
      'index.html',
      'manifest.webmanifest',
      'icons/icon-192.png',
      'assets/index-a.js',
      'assets/card-d.js',
      'assets/table-f.js',
      'assets/manage-pcns-e.js',
      'assets/admin-e.css',
      'assets/compress-worker-g.js',
    ].map((url) => ({ url, revision: null }));
    // The worker's bundle is not in the manifest: kept, never dropped by omission.
    expect(keepOfficerFiles(entries, manifest).map((e) => e.url)).toEqual([
      'index.html',
      'manifest.webmanifest',
      'icons/icon-192.png',
      'assets/index-a.js',
      'assets/card-d.js',
      'assets/compress-worker-g.js',
    ]);
  });
});
