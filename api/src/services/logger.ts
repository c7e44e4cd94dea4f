import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, stdTimeFunctions, destination } from 'pino';

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

/**
 * One JSON line per event ({ level, time, message, ...fields }), written by pino. On stdout the
 * writes are asynchronous: the access log's line per request must not cost the request a
 * blocking write (stdout to a pipe is synchronous in Node). Given `write`, each line goes to it
 * at once (tests read them). Never pass a token, password, hash or personal data in `fields`.
 */
export function createLogger(write?: (line: string) => void): Logger {
  // A reader that falls behind by 16 MiB loses lines rather than the server its memory.
  const stream = write
    ? { write: (line: string) => write(line.trimEnd()) }
    : destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 });
  const log = pino(
    {
      base: null,
      messageKey: 'message',
      timestamp: stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => scope.getStore() ?? {},
    },
    stream,
  );
  return {
    info: (message, fields = {}) => log.info(fields, message),
    warn: (message, fields = {}) => log.warn(fields, message),
    error: (message, fields = {}) => log.error(fields, message),
  };
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
