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

/** Places the fixture (and any it imports) in `where` and lints the fixture alone. */
async function lintFixture(name: string, where = 'web/src/features/profile', companions: string[] = []): Promise<string[]> {
  const [target] = [name, ...companions].map((file) => {
    const path = join(root, where, `lint-fixture-${file}`);
    copyFileSync(join(import.meta.dirname, 'lint-fixtures', file), path);
    placed.push(path);
    return path;
  });
  const [result] = await new ESLint({ cwd: root }).lintFiles([target!]);
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

  it('fails on a route importing a repository or the database', async () => {
    expect(await lintFixture('route-imports-database.ts', 'api/src/routes')).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*"\.\.\/repositories\/car-parks\.ts".*A route calls a workflow/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*"\.\.\/db\/database\.ts".*A route calls a workflow/),
    ]);
  }, 60_000);

  it('fails on a domain rule importing a repository or a service', async () => {
    expect(await lintFixture('domain-imports-repository.ts', 'api/src/domain')).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*"\.\.\/repositories\/pcn-rows\.ts".*Domain rules are pure/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*"\.\.\/services\/csv-export\.ts".*Domain rules are pure/),
    ]);
  }, 60_000);

  it('fails on a repository importing a service or a workflow', async () => {
    expect(await lintFixture('repository-imports-workflow.ts', 'api/src/repositories')).toEqual([
      expect.stringMatching(/^import-x\/no-restricted-paths: .*"\.\.\/services\/upload-urls\.ts".*A repository reads and writes rows/),
      expect.stringMatching(/^import-x\/no-restricted-paths: .*"\.\.\/workflows\/pcn-access\.ts".*A repository reads and writes rows/),
    ]);
  }, 60_000);

  it('fails on two modules that import each other', async () => {
    expect(await lintFixture('cycle-a.ts', 'web/src/features/profile', ['cycle-b.ts'])).toEqual([
      expect.stringMatching(/^import-x\/no-cycle: Dependency cycle detected/),
    ]);
  }, 60_000);
});
