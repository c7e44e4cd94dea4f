import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Content-Security-Policy sources of the inline scripts in the built index.html: the boot
 * screen's few lines that choose the first screen before the body paints (web/build/boot-screen.ts).
 * Allowing them by hash keeps 'unsafe-inline' out: a script injected into a page has another
 * hash and does not run. Read once at start, from the build being served.
 */
export function inlineScriptHashes(webDistDir: string | undefined): string[] {
  const indexFile = webDistDir ? join(webDistDir, 'index.html') : undefined;
  if (!indexFile || !existsSync(indexFile)) return [];
  const html = readFileSync(indexFile, 'utf8');
  return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '', 'utf8')
        .digest('base64')}'`,
  );
}
