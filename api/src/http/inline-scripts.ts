import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Content-Security-Policy source of the one inline script the built index.html may have: the
 * boot screen's few lines that choose the first screen before the body paints
 * (web/build/boot-screen.ts). Allowing it by hash keeps 'unsafe-inline' out: a script injected
 * into a page has another hash and does not run. Only one is ever trusted: a build that put a
 * second inline script into the page (a plugin's, or text that ended up as markup) would have it
 * trusted blindly, so the server refuses to start on such a build instead; every other script is
 * a file, under 'self'. Read once at start, from the build being served.
 */
export function inlineScriptHashes(webDistDir: string | undefined): string[] {
  const indexFile = webDistDir ? join(webDistDir, 'index.html') : undefined;
  if (!indexFile || !existsSync(indexFile)) return [];
  const html = readFileSync(indexFile, 'utf8');
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(
    ([, attributes = '']) => !/\bsrc\s*=/i.test(attributes),
  );
  if (inline.length > 1) {
    throw new Error(`${indexFile} has ${inline.length} inline scripts: only the boot screen's may be inline, move the others into files`);
  }
  return inline.map(
    ([, , body]) =>
      `'sha256-${createHash('sha256')
        .update(body ?? '', 'utf8')
        .digest('base64')}'`,
  );
}
