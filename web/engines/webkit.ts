import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import WebDriver from 'webdriver';
import type { Engine } from './engine.ts';
import { freePort, waitUntil } from '../../scripts/test-support.ts';
import { stopProcess, waitForPort } from './processes.ts';

/** WebKitGTK's MiniBrowser, as Debian's webkit2gtk-driver installs it: no SyncManager, like Safari. */
const MINIBROWSER = process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** A display for the browser's window: the caller's, or an Xvfb of our own. */
async function display(): Promise<{ name: string; process: ChildProcess | null }> {
  if (process.env.DISPLAY) return { name: process.env.DISPLAY, process: null };
  const number = 90 + Math.floor(Math.random() * 400);
  const xvfb = spawn('Xvfb', [`:${number}`, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  // Ready once its socket is there (it listens on no TCP port to wait for).
  await waitUntil(`Xvfb :${number} to open its socket`, () => {
    if (xvfb.exitCode !== null) throw new Error(`Xvfb :${number} exited with ${xvfb.exitCode}`);
    return existsSync(`/tmp/.X11-unix/X${number}`);
  });
  return { name: `:${number}`, process: xvfb };
}

export async function launchWebKit(): Promise<Engine> {
  const screen = await display();
  const port = await freePort();
  // No GPU on a test machine: software GL, and no accelerated compositing to ask it for.
  const env = { ...process.env, DISPLAY: screen.name, LIBGL_ALWAYS_SOFTWARE: '1', WEBKIT_DISABLE_COMPOSITING_MODE: '1' };
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { env, stdio: 'ignore' });
  await waitForPort(port);
  const client = await WebDriver.newSession({
    hostname: '127.0.0.1',
    port,
    logLevel: 'error',
    capabilities: {
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
      // Classic WebDriver: the client would otherwise ask for BiDi (webSocketUrl), which this driver refuses.
      'wdio:enforceWebDriverClassic': true,
    } as WebdriverIO.Capabilities,
  });
  const find = async (selector: string) => {
    const found = (await client.findElement('css selector', selector)) as Record<string, string>;
    if (!found[ELEMENT]) throw new Error(`WebKit: no element matches ${selector}`);
    return found[ELEMENT];
  };
  return {
    name: 'WebKitGTK',
    goto: async (url) => void (await client.navigateTo(url)),
    reload: async () => void (await client.refresh()),
    async type(selector, text) {
      // The painted form may be swapped for the app's between finding a field and typing into
      // it: nothing was typed then (the driver refuses the whole call), so find it again.
      for (let attempt = 1; ; attempt++) {
        try {
          return void (await client.elementSendKeys(await find(selector), text));
        } catch (error) {
          if (attempt >= 3 || !/not found|stale/i.test(String(error))) throw error;
        }
      }
    },
    click: async (selector) => void (await client.elementClick(await find(selector))),
    // WebDriver: keys sent to a file input are its files' paths, one per line.
    setFiles: async (selector, paths) => void (await client.elementSendKeys(await find(selector), paths.join('\n'))),
    async evaluate<T>(body: string) {
      // A rejection comes back as a value (an async script cannot throw across the protocol).
      const answer = (await client.executeAsyncScript(
        `const done = arguments[arguments.length - 1]; (async () => { ${body} })().then((value) => done({ value }), (e) => done({ error: String(e) }));`,
        [],
      )) as { value?: T; error?: string };
      if (answer.error !== undefined) throw new Error(`WebKit: the page's script failed: ${answer.error}`);
      return answer.value as T;
    },
    async close() {
      await client.deleteSession().catch(() => undefined);
      await stopProcess(driver);
      if (screen.process) await stopProcess(screen.process);
    },
  };
}
