// The evidence pack as a reviewer sees it: renders pages of the sample pack that the API tests
// leave in test-results/evidence-pack/ (api/test/evidence-pack.test.ts) to PNG with poppler's
// pdftoppm, kept as test artifacts. The vitest suite has no system dependency; this step does,
// so it installs Debian's poppler-utils when missing and running as root (as .ci/run does for
// Chromium), and otherwise skips with a message saying why.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './ensure-installed.mjs';

const dir = join(root, 'test-results', 'evidence-pack');
const pdf = join(dir, 'evidence-pack.pdf');

function hasPdftoppm() {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function renderEvidencePack() {
  if (!existsSync(pdf)) {
    console.log(`Evidence pack render skipped: ${pdf} is missing (the API tests write it).`);
    return;
  }
  if (!hasPdftoppm()) {
    const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!isRoot || !existsSync('/usr/bin/apt-get')) {
      console.log(
        "Evidence pack render skipped: pdftoppm not found. Install Debian's poppler-utils (apt-get install poppler-utils) to get the PNG.",
      );
      return;
    }
    console.log("Installing Debian's poppler-utils for pdftoppm...");
    execSync('apt-get update -qq && apt-get install -y -qq poppler-utils >/dev/null', {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  }
  // Page 1 is the cover and timeline; page 2 the first photo with its caption.
  for (const page of [1, 2]) {
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '80',
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      pdf,
      join(dir, `evidence-pack-page-${page}`),
    ]);
  }
  console.log(`Evidence pack pages rendered to ${join(dir, 'evidence-pack-page-1.png')} and page-2.png`);
}

renderEvidencePack();
