import { APP_SCRIPTS_MARKER } from './boot-screen.ts';

/**
 * index.html paints from its own bytes: the app's first stylesheet is written into it, and the
 * app's scripts are started by the boot script once the page is painted.
 *
 * A linked stylesheet blocks the first paint until it arrives. On one bar of signal it shared
 * the link with the scripts index.html preloaded (about 100 KB): through a real shared 400 kbit/s
 * link with 400 ms round trips, the painted sign-in form waited behind them, and Lighthouse
 * scored 74-78 there. Inline, the page is one request of about 6 KB compressed, inside TCP's
 * first window. Stylesheets of screens loaded later stay files.
 *
 * The scripts are not in the markup: fetched while the page is parsed, they compete with it for
 * the link and the main thread, and Lighthouse counts them into the first paint. The boot script
 * (build/boot-screen.ts) adds them after the first frame, module preloads first so they download
 * side by side; the painted form takes typing meanwhile and the app takes it over.
 */

/** The parts of Rolldown's output bundle this reads and changes. */
export type StyleBundle = Record<string, { type: 'asset'; source: string | Uint8Array } | { type: 'chunk' }>;

const LINKED_STYLESHEET = /<link rel="stylesheet"(?: crossorigin)? href="(\/[^"]+\.css)">\n?\s*/g;
const ENTRY_SCRIPT = /<script type="module"(?: crossorigin)? src="(\/[^"]+\.js)"><\/script>\n?\s*/g;
const MODULE_PRELOAD = /<link rel="modulepreload"(?: crossorigin)? href="(\/[^"]+\.js)">\n?\s*/g;

/**
 * Replaces each stylesheet index.html links to with a <style> holding it and drops the file from
 * the bundle (nothing else loads it: no chunk names the entry's CSS); moves the entry script and
 * its module preloads into the boot script's list. Throws when a linked file is not in the
 * bundle, a stylesheet could end the <style> early, or the page has no entry or no boot script.
 */
export function paintFromHtmlAlone(html: string, bundle: StyleBundle): string {
  const entries: string[] = [];
  const preloads: string[] = [];
  const page = html
    .replace(LINKED_STYLESHEET, (_, url: string) => {
      const file = url.slice(1);
      const asset = bundle[file];
      if (!asset || asset.type !== 'asset') throw new Error(`index.html links ${file}, which the build did not write`);
      const css = typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source);
      if (/<\/style/i.test(css)) throw new Error(`${file} contains "</style", which would end the inline <style> early`);
      delete bundle[file];
      return `<style>${css.trim()}</style>\n    `;
    })
    .replace(ENTRY_SCRIPT, (_, url: string) => {
      entries.push(url);
      return '';
    })
    .replace(MODULE_PRELOAD, (_, url: string) => {
      preloads.push(url);
      return '';
    });
  if (entries.length !== 1) throw new Error(`index.html has ${entries.length} entry scripts; the boot script starts exactly one`);
  if (!page.includes(APP_SCRIPTS_MARKER)) throw new Error('index.html has no boot script to start the app');
  // JSON of our own asset paths: no "</script" can appear in it.
  return page.replace(APP_SCRIPTS_MARKER, JSON.stringify([...entries, ...preloads]));
}
