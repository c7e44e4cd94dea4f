import puppeteer from 'puppeteer-core';
import type { Engine } from './engine.ts';

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Firefox ESR as Debian installs it, over WebDriver BiDi (puppeteer-core: no browser download). */
export async function launchFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  const page = await browser.newPage();
  return {
    name: 'Firefox ESR',
    goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
    reload: async () => void (await page.reload({ waitUntil: 'load' })),
    type: async (selector, text) => {
      await page.waitForSelector(selector);
      await page.type(selector, text);
    },
    click: async (selector) => {
      await page.waitForSelector(selector);
      await page.click(selector);
    },
    async setFiles(selector, paths) {
      const input = await page.waitForSelector(selector);
      if (!input) throw new Error(`Firefox: no element matches ${selector}`);
      await (input as import('puppeteer-core').ElementHandle<HTMLInputElement>).uploadFile(...paths);
    },
    evaluate: async <T>(body: string) =>
      (await page.evaluate(new Function(`return (async () => { ${body} })();`) as () => Promise<T>)) as T,
    close: () => browser.close(),
  };
}
