import { createServer } from 'node:net';

/**
 * Test support every kind of test may import: the API tests, the browser tests, the engine runs
 * and the scripts' own services (scripts/ is outside the import boundaries between api and web).
 */

/** A TCP port free on 127.0.0.1 right now (the kernel picks it), for a server a test starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    // A probe must never keep the process that asked alive.
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * Asks `check` again and again until it answers something truthy, and returns that; after
 * `timeoutMs` it fails naming `what` was awaited. For a state another process or the file system
 * reaches in its own time, where a fixed sleep would be either too short on a busy machine or
 * wasted on an idle one.
 */
export async function waitUntil<T>(
  what: string,
  check: () => T | Promise<T>,
  { timeoutMs = 10_000, intervalMs = 25 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
