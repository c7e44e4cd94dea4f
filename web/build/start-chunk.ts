/**
 * Chunking that keeps a deploy cheap. A bundler hashes each chunk with the names of
 * the chunks it imports. The entry chunk names every screen it can load lazily, so it changes
 * with any screen; when screens import shared code from the entry, each of them changes too.
 *
 * So the app's own modules the entry needs at start are split in two: those only the entry's
 * own modules import stay in the entry; those a lazily loaded screen imports as well go to a
 * 'start' chunk. Libraries are grouped apart in vite.config.ts. Nothing imports the entry.
 */

/** The part of Rolldown's module graph this needs. */
export type ModuleGraph = {
  getModuleInfo(id: string): { importedIds: readonly string[]; importers: readonly string[]; dynamicImporters: readonly string[] } | null;
};

/** The app's own source, not libraries or shared (whose barrels list every re-export). */
const isAppSource = (id: string) => /[\\/]web[\\/]src[\\/]/.test(id);

/** App modules statically reachable from the entry (through app modules) that something outside the entry's own set imports. */
export function startChunkModules(entryId: string, graph: ModuleGraph): Set<string> {
  const reachable = new Set<string>();
  const stack = [entryId];
  while (stack.length > 0) {
    const id = stack.pop()!;
    if (reachable.has(id) || !isAppSource(id)) continue;
    reachable.add(id);
    stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
  }
  // The entry's own set: shrink until every module in it is imported only from inside it.
  const own = new Set(reachable);
  for (let changed = true; changed;) {
    changed = false;
    for (const id of own) {
      if (id === entryId) continue;
      const info = graph.getModuleInfo(id);
      if ([...(info?.importers ?? []), ...(info?.dynamicImporters ?? [])].some((importer) => !own.has(importer))) {
        own.delete(id);
        changed = true;
      }
    }
  }
  return new Set([...reachable].filter((id) => !own.has(id)));
}

/** Rolldown's group `name` function for the 'start' chunk, the graph walked once per build. */
export function startChunkName(entryId: string) {
  const perBuild = new WeakMap<object, Set<string>>();
  return (id: string, ctx: ModuleGraph): string | null => {
    let start = perBuild.get(ctx);
    if (!start) {
      start = startChunkModules(entryId, ctx);
      perBuild.set(ctx, start);
    }
    return start.has(id) ? 'start' : null;
  };
}
