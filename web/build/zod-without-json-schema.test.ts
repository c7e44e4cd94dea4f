import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Rollup } from 'vite';
import { describe, expect, it } from 'vitest';
import { zodWithoutJsonSchema } from './zod-without-json-schema.ts';

/** zod as the app's build bundles it, with or without the plugin: the bundle's code and what it exports. */
async function bundle(withPlugin: boolean) {
  const dir = mkdtempSync(join(import.meta.dirname, '.zod-test-'));
  try {
    const entry = join(dir, 'entry.js');
    writeFileSync(
      entry,
      `import { z } from 'zod';
       const name = z.object({ name: z.string().min(2).max(5) });
       export const valid = name.safeParse({ name: 'Ann' }).success;
       export const invalid = name.safeParse({ name: 'A' }).success;
       export const maxLength = z.string().max(5).maxLength;
       export function jsonSchema() { return name.toJSONSchema(); }`,
    );
    const output = (await build({
      configFile: false,
      logLevel: 'silent',
      root: dir,
      plugins: withPlugin ? [zodWithoutJsonSchema()] : [],
      build: { write: false, minify: false, lib: { entry, formats: ['es'], fileName: 'out' } },
    })) as Rollup.RollupOutput[];
    const code = output[0]!.output.map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
    const out = join(dir, 'out.mjs');
    writeFileSync(out, code);
    return { code, module: (await import(out)) as { valid: boolean; invalid: boolean; maxLength: number; jsonSchema: () => unknown } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('zod without its JSON Schema converter', () => {
  it('still validates and reads checks, leaves the converter out, and says so if it is called', async () => {
    const [plain, lean] = await Promise.all([bundle(false), bundle(true)]);
    expect(lean.module).toMatchObject({ valid: true, invalid: false, maxLength: 5 });
    expect(() => lean.module.jsonSchema()).toThrow('JSON Schema is not part of the web app');
    expect(plain.module.jsonSchema()).toMatchObject({ type: 'object' });
    expect(lean.code.length).toBeLessThan(plain.code.length - 20_000);
  }, 30_000);
});
