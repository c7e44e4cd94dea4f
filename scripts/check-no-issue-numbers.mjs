// Part of `npm run lint`: no code comment, test name or document cites a tracker issue by number,
// or a section of a specification or design document kept outside the repository. A reader of
// the repository can open neither: cite a record in docs/decisions/ or a heading of
// docs/product.md, or let the code say why.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { root } from './ensure-installed.mjs';

const ISSUE_NUMBER = /\bissues? ?#?\d+\b|\bissue-\d+\b/i;
const OUTSIDE_DOCUMENT = /\b(?:spec|specification|design)(?: section|'s section| §)|\bproduct[-]spec\b|\bdesign\.md\b/i;
/** The two engines' frozen migration histories are never edited (migrations/index.ts), so an old citation there stays. */
const FROZEN = /^migrations\/(?:sqlite|postgres)\//;

/** What is wrong with one line of `file`: the kind of citation it makes, or null. */
export function citationIn(file, line) {
  if (ISSUE_NUMBER.test(line)) return 'an issue number';
  if (!FROZEN.test(file) && OUTSIDE_DOCUMENT.test(line)) return 'a section of a document outside the repository';
  return null;
}

/** Every offending line of the given files' texts, as `file:line: text (kind)`. */
export function findCitations(files) {
  const found = [];
  for (const { file, text } of files) {
    text.split('\n').forEach((line, index) => {
      const kind = citationIn(file, line);
      if (kind) found.push(`${file}:${index + 1}: ${line.trim()} (${kind})`);
    });
  }
  return found;
}

function repositoryFiles() {
  return execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((file) => /\.(ts|tsx|js|mjs|css|md|html|json)$/.test(file) && !file.endsWith('package-lock.json'))
    .flatMap((file) => {
      try {
        return [{ file, text: readFileSync(`${root}/${file}`, 'utf8') }];
      } catch {
        return []; // listed but deleted in the working tree
      }
    });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const found = findCitations(repositoryFiles());
  if (found.length > 0) {
    console.error(
      `Citations a reader cannot open (cite a decision record or a heading of docs/product.md, or say why in words):\n${found.join('\n')}`,
    );
    process.exit(1);
  }
}
