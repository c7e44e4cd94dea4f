import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The part of Vite's build manifest (dist/.vite/manifest.json) this needs, with the sources of
 * each chunk (`sources`, from CHUNK_SOURCES_FILE), which Vite's manifest does not say.
 */
export type ViteManifest = Record<
  string,
  { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[]; assets?: string[]; sources?: string[] }
>;

/** Each built chunk's source modules, by file, written beside Vite's manifest (vite.config.ts). */
export const CHUNK_SOURCES_FILE = '.vite/chunk-sources.json';

/** A build's manifest, each chunk with its sources where the build recorded them. */
export function readBuildManifest(outDir: string): ViteManifest {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as ViteManifest;
  const sourcesFile = join(outDir, CHUNK_SOURCES_FILE);
  if (!existsSync(sourcesFile)) return manifest;
  const sources = JSON.parse(readFileSync(sourcesFile, 'utf8')) as Record<string, string[]>;
  for (const chunk of Object.values(manifest)) if (sources[chunk.file]) chunk.sources = sources[chunk.file];
  return manifest;
}

/** Admin screens: an officer never opens them, so an officer's install does not download them. */
export const isAdminSource = (key: string) => key.startsWith('src/features/admin/');
/** The motorist's page (/charge): public, looked up on the motorist's own phone, never an officer's. */
export const isMotoristSource = (key: string) => key.startsWith('src/features/charge/');

/**
 * Every built file the officer app can load: from index.html through static and dynamic
 * imports, except the dynamic imports of admin screens and the motorist's page (and what only
 * they import). Shared chunks reachable from an officer screen stay; a chunk only admin screens
 * use goes. A shared chunk loaded lazily (its key names no source) is judged by the sources it
 * holds: the motorist's lookup calls, which the entry's /charge screen loads, are the motorist's.
 * `alsoSkip` leaves out more lazily loaded sources (the benchmark skips account screens).
 */
export function officerFiles(manifest: ViteManifest, alsoSkip: (source: string) => boolean = () => false): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const notOfficers = (source: string) => isAdminSource(source) || isMotoristSource(source) || alsoSkip(source);
  const lazilySkipped = (key: string) => {
    const sources = key.startsWith('_') ? (manifest[key]?.sources ?? []) : [key];
    return sources.length > 0 && sources.every(notOfficers);
  };
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(key)) return;
    seen.add(key);
    files.add(chunk.file);
    for (const file of [...(chunk.css ?? []), ...(chunk.assets ?? [])]) files.add(file);
    for (const next of chunk.imports ?? []) visit(next);
    for (const next of chunk.dynamicImports ?? []) if (!lazilySkipped(next)) visit(next);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (key === 'index.html' || chunk.isEntry) visit(key);
  return files;
}

/**
 * Drops the JavaScript and CSS an officer never loads from the service worker's precache list
 * (the first install is on one bar of signal). Pages, icons and the manifest stay.
 */
export function keepOfficerFiles<E extends { url: string }>(entries: E[], manifest: ViteManifest): E[] {
  const keep = officerFiles(manifest);
  // Only what the manifest knows can be judged: a file it does not list (a worker's bundle)
  // stays, so nothing the officer app needs offline is dropped by omission.
  const known = new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]));
  return entries.filter((entry) => {
    const file = entry.url.replace(/^\//, '');
    return !known.has(file) || keep.has(file);
  });
}
