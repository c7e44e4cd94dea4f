import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script of `npm run lint`, without type declarations.
import { citationIn, findCitations } from './check-no-issue-numbers.mjs';

const check = citationIn as (file: string, line: string) => string | null;
const find = findCitations as (files: Array<{ file: string; text: string }>) => string[];
/** A citation put together here, so this file's own lines cite nothing and pass the check. */
const words = (...parts: string[]) => parts.join(' ');

describe('check-no-issue-numbers', () => {
  it('fails a line citing a tracker issue by number', () => {
    expect(check('api/src/x.ts', words('// Fixed for issue', '38.'))).toBe('an issue number');
    expect(check('docs/x.md', ['See issue', '12.'].join('-'))).toBe('an issue number');
  });

  it('fails a line citing a section of a specification or design document kept outside the repository', () => {
    for (const line of [
      words('/** Business constants (spec', 'section 9). */'),
      words('// Design', 'section 4: the one envelope.'),
      words(' * as the Spec', 'section 2 route table has it'),
      words('the specification', 'section on appeals'),
      words('see design', '§ 6'),
      ['written in product', 'spec.md'].join('-'),
      ['as design', 'md says'].join('.'),
    ]) {
      expect(check('web/src/x.tsx', line), line).toBe('a section of a document outside the repository');
    }
  });

  it('passes citations a reader can open, and test file names that end in .spec.ts', () => {
    for (const line of [
      '/** The only status changes an admin may make (docs/product.md, Statuses and transitions). */',
      '// Decision 0009: a notice is never lost.',
      "import { test } from './admin-access.spec.ts';",
      'Paragraph 8(2)(f) of Schedule 4, section 2',
    ]) {
      expect(check('web/src/x.tsx', line), line).toBeNull();
    }
  });

  it("leaves the frozen migration histories' old citations, which are never edited, but not their issue numbers", () => {
    expect(check('migrations/sqlite/0007_refresh_grace.ts', words('// Design', 'section 7 allows one grace replay'))).toBeNull();
    expect(check('migrations/postgres/0001_initial.ts', words('// issue', '3'))).toBe('an issue number');
    expect(check('migrations/0032_native_postgres_types.ts', words('// design', 'section 4'))).not.toBeNull();
  });

  it('names the file, the line and what is wrong', () => {
    const line = words('/** Limits (spec', 'section 9). */');
    expect(find([{ file: 'shared/src/limits.ts', text: `export const A = 1;\n${line}` }])).toEqual([
      `shared/src/limits.ts:2: ${line} (a section of a document outside the repository)`,
    ]);
  });

  it('passes the repository as it is', () => {
    const script = join(import.meta.dirname, 'check-no-issue-numbers.mjs');
    expect(() => execFileSync(process.execPath, [script], { encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
  }, 60_000);
});
