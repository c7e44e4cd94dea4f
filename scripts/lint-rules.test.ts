import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The lint rules that keep the code as the README says, tried on a fixture each: the fixture is
 * put where the rule applies (a web feature), linted with the project's own config, and removed.
 */
const root = join(import.meta.dirname, '..');
const placed: string[] = [];
afterEach(() => {
  for (const file of placed.splice(0)) rmSync(file, { force: true });
});

async function lintFixture(name: string): Promise<string[]> {
  const target = join(root, 'web/src/features/profile', `lint-fixture-${name}`);
  copyFileSync(join(import.meta.dirname, 'lint-fixtures', name), target);
  placed.push(target);
  const [result] = await new ESLint({ cwd: root }).lintFiles([target]);
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('lint', () => {
  it('fails on a floating promise', async () => {
    expect(await lintFixture('floating-promise.ts')).toEqual([expect.stringMatching(/^@typescript-eslint\/no-floating-promises: /)]);
  }, 60_000);

  it("fails on a feature importing another's insides, and on the web app importing the API", async () => {
    expect(await lintFixture('forbidden-import.ts')).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*A feature imports another only through auth\/adopt-session\.ts/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*The web app talks to the API over HTTP only/),
    ]);
  }, 60_000);
});
