import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';

/**
 * zod's classic API wires every schema to its JSON Schema converter, about 10 KB on the wire
 * that the web app never runs: it validates, and the API describes itself on the server. In the
 * app's build those two zod modules are replaced by stand-ins that keep their names and throw
 * if called; `aggregateChecks` (a schema's minLength and the like) stays zod's own.
 */
const STUBBED = /[\\/]zod[\\/]v4[\\/]core[\\/](to-json-schema|json-schema-processors)\.js$/;
const KEPT = new Set(['aggregateChecks']);
const PREFIX = '\0zod-without-json-schema:';

export function zodWithoutJsonSchema(): Plugin {
  return {
    name: 'zod-without-json-schema',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer || !/[\\/]zod[\\/]/.test(importer) || !/json-schema/.test(source)) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || !STUBBED.test(resolved.id)) return null;
      // The kept function's own module may import these names itself: let it have zod's.
      if (importer.startsWith(PREFIX) || STUBBED.test(importer)) return resolved;
      return PREFIX + resolved.id;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const real = id.slice(PREFIX.length);
      const source = readFileSync(real, 'utf8');
      const names = [...source.matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]!);
      for (const [, alias] of source.matchAll(/^export \{ \w+ as (\w+) \}/gm)) names.push(alias!);
      const kept = names.filter((name) => KEPT.has(name));
      return [
        `const unavailable = () => { throw new Error('JSON Schema is not part of the web app'); };`,
        // The converters are made when a schema is (then only called): made, they throw if called.
        `const maker = () => unavailable;`,
        ...kept.map((name) => `export { ${name} } from ${JSON.stringify(real)};`),
        ...names
          .filter((name) => !KEPT.has(name))
          .map((name) => `export const ${name} = ${name.startsWith('create') ? 'maker' : 'unavailable'};`),
      ].join('\n');
    },
  };
}
