/**
 * One browser engine as the cross-engine journeys drive it: WebKitGTK over classic WebDriver
 * (webkit.ts) or Firefox ESR over WebDriver BiDi (firefox.ts). Only what the journeys need:
 * real key presses into a field, clicks, scripts run in the page, and waiting on a condition.
 */
export interface Engine {
  readonly name: string;
  goto(url: string): Promise<void>;
  reload(): Promise<void>;
  /** Types into the field matching `selector` with real key events, as a person would. */
  type(selector: string, text: string): Promise<void>;
  click(selector: string): Promise<void>;
  /** Gives the file input matching `selector` these files, as a person picking them would. */
  setFiles(selector: string, paths: readonly string[]): Promise<void>;
  /** Runs `body` (a function body, with `return`) in the page and answers its JSON value. */
  evaluate<T>(body: string): Promise<T>;
  close(): Promise<void>;
}

/** Polls `body` in the page until it returns a truthy value, or fails saying what was waited for. */
export async function waitFor<T>(engine: Engine, what: string, body: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await engine.evaluate<T>(body);
      if (value) return value;
    } catch (error) {
      // A page in the middle of loading has no document to ask yet.
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`${engine.name}: timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (${String(last)})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A page's visible text contains `text`. */
export function waitForText(engine: Engine, text: string, timeoutMs?: number): Promise<boolean> {
  return waitFor(engine, JSON.stringify(text), `return document.body?.innerText.includes(${JSON.stringify(text)}) ?? false;`, timeoutMs);
}

/** Clicks, in the page, the first element matching `selector` whose text is `text` (a button, a label). */
export async function clickText(engine: Engine, selector: string, text: string): Promise<void> {
  const clicked = await waitFor<boolean>(
    engine,
    `${selector} "${text}"`,
    `const el = [...document.querySelectorAll(${JSON.stringify(selector)})].find((e) => e.textContent?.trim() === ${JSON.stringify(text)} && !e.disabled);
     if (!el) return false; el.click(); return true;`,
  );
  if (!clicked) throw new Error(`${engine.name}: no ${selector} reads ${text}`);
}
