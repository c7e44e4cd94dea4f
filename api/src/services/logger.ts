import { AsyncLocalStorage } from 'node:async_hooks';

export type Logger = {
  info: (message: string, fields?: Record<string, unknown>) => void;
  warn: (message: string, fields?: Record<string, unknown>) => void;
  error: (message: string, fields?: Record<string, unknown>) => void;
};

/**
 * Fields every line logged inside a scope carries: the request id of the request being answered
 * (http/observe-requests.ts), so the lines one request wrote are found together.
 */
const scope = new AsyncLocalStorage<Record<string, unknown>>();

/** Runs `work` with `fields` on every line it logs, however deep. */
export function withLogFields<T>(fields: Record<string, unknown>, work: () => T): T {
  return scope.run(fields, work);
}

/** One JSON line per event. Never pass a token, password, hash or personal data in `fields`. */
export function createLogger(write: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Logger {
  const log =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      write(JSON.stringify({ time: new Date().toISOString(), level, message, ...scope.getStore(), ...fields }));
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
