import { describe, expect, it } from 'vitest';
import { startChunkModules, type ModuleGraph } from './start-chunk.ts';

/** A module graph from a list of static and dynamic imports between files of web/src (and one library). */
function graphOf(edges: Record<string, { imports?: string[]; dynamic?: string[] }>): ModuleGraph {
  const id = (name: string) => (name.startsWith('lib:') ? `/x/node_modules/${name.slice(4)}.js` : `/x/web/src/${name}.ts`);
  const info = new Map<string, { importedIds: string[]; importers: string[]; dynamicImporters: string[] }>();
  const entry = (name: string) => {
    if (!info.has(id(name))) info.set(id(name), { importedIds: [], importers: [], dynamicImporters: [] });
    return info.get(id(name))!;
  };
  for (const [from, { imports = [], dynamic = [] }] of Object.entries(edges)) {
    entry(from);
    for (const to of imports) {
      entry(from).importedIds.push(id(to));
      entry(to).importers.push(id(from));
    }
    for (const to of dynamic) entry(to).dynamicImporters.push(id(from));
  }
  return { getModuleInfo: (moduleId) => info.get(moduleId) ?? null };
}

const names = (ids: Set<string>) => [...ids].map((i) => i.replace(/^.*\/src\//, '').replace(/\.ts$/, '')).sort();

describe('the start chunk', () => {
  const graph = graphOf({
    main: { imports: ['router', 'session'] },
    router: { imports: ['login', 'paths'], dynamic: ['dashboard'] },
    login: { imports: ['session', 'form-bits'] },
    session: { imports: ['api', 'lib:ky'] },
    dashboard: { imports: ['session', 'paths', 'card'] },
  });

  it('takes the start modules a lazily loaded screen also imports, and what only they import', () => {
    // session and paths are imported by the dashboard; api only by session, so it goes with it.
    expect(names(startChunkModules('/x/web/src/main.ts', graph))).toEqual(['api', 'paths', 'session']);
  });

  it("leaves in the entry what only the entry's own modules import, and never takes libraries or lazy screens", () => {
    const start = names(startChunkModules('/x/web/src/main.ts', graph));
    for (const own of ['main', 'router', 'login', 'form-bits', 'dashboard', 'card']) expect(start).not.toContain(own);
    expect([...startChunkModules('/x/web/src/main.ts', graph)].some((m) => m.includes('node_modules'))).toBe(false);
  });
});
