import { describe, expect, it } from 'vitest';
import { APP_SCRIPTS_MARKER } from './boot-screen.ts';
import { paintFromHtmlAlone, type StyleBundle } from './first-paint.ts';

const PAGE =
  `<head><script>var s=${APP_SCRIPTS_MARKER};</script>\n` +
  '    <script type="module" crossorigin src="/assets/index-a.js"></script>\n' +
  '    <link rel="modulepreload" crossorigin href="/assets/react-c.js">\n' +
  '    <link rel="stylesheet" crossorigin href="/assets/index-b.css">\n' +
  '  </head><body></body>';

describe('index.html paints from its own bytes', () => {
  it('puts the stylesheet where its link was, drops the file, and hands the scripts to the boot script', () => {
    const bundle: StyleBundle = {
      'assets/index-b.css': { type: 'asset', source: '.auth-card{display:flex}\n' },
      'assets/index-a.js': { type: 'chunk' },
    };
    expect(paintFromHtmlAlone(PAGE, bundle)).toBe(
      '<head><script>var s=["/assets/index-a.js","/assets/react-c.js"];</script>\n' +
        '    <style>.auth-card{display:flex}</style>\n' +
        '    </head><body></body>',
    );
    expect(Object.keys(bundle)).toEqual(['assets/index-a.js']);
  });

  it('reads a stylesheet given as bytes', () => {
    const bundle: StyleBundle = { 'assets/index-b.css': { type: 'asset', source: new TextEncoder().encode('p{margin:0}') } };
    expect(paintFromHtmlAlone(PAGE, bundle)).toContain('<style>p{margin:0}</style>');
  });

  it('refuses what it cannot do safely', () => {
    const css = (source: string): StyleBundle => ({ 'assets/index-b.css': { type: 'asset', source } });
    expect(() => paintFromHtmlAlone(PAGE, css('a::after{content:"</style>"}'))).toThrow(/<\/style/);
    expect(() => paintFromHtmlAlone(PAGE, {})).toThrow('index.html links assets/index-b.css, which the build did not write');
    expect(() => paintFromHtmlAlone(PAGE.replace(APP_SCRIPTS_MARKER, 'null'), css(''))).toThrow('no boot script');
    expect(() => paintFromHtmlAlone(PAGE.replace(/<script type="module".*\n/, ''), css(''))).toThrow('0 entry scripts');
  });
});
