// Part of `npm run lint`: no code comment, test name or document cites a tracker issue by number.
// A reader of the repository cannot open the tracker; cite a record in docs/decisions/, or let
// the code say why.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { root } from './ensure-installed.mjs';

const CITATION = /\bissues? ?#?\d+\b|\bissue-\d+\b/i;
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|tsx|js|mjs|css|md|html|json)$/.test(file) && !file.endsWith('package-lock.json'));

const found = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(`${root}/${file}`, 'utf8');
  } catch {
    continue; // listed but deleted in the working tree
  }
  text.split('\n').forEach((line, index) => {
    if (CITATION.test(line)) found.push(`${file}:${index + 1}: ${line.trim()}`);
  });
}
if (found.length > 0) {
  console.error(`Issue numbers cited (cite a decision record, or say why in words):\n${found.join('\n')}`);
  process.exit(1);
}
