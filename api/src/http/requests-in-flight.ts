import type { Server } from 'node:http';

/**
 * How many requests the server is answering now: for work that can wait its turn, the job queue
 * on SQLite, which shares the process (and on a small server the core) with the answers
 * (decision 0050). A request counts from its arrival until its answer is sent or its socket is
 * gone, an upload still arriving included.
 */
export type RequestsInFlight = {
  readonly count: number;
  /** Resolves once no request is in flight: at once when none is. */
  whenNone(): Promise<void>;
};

export type RequestCounter = RequestsInFlight & {
  /** Counts this server's requests from now on. */
  watch(server: Server): void;
};

export function createRequestCounter(): RequestCounter {
  let count = 0;
  /** One promise for everyone waiting out the present busy spell. */
  let none: { promise: Promise<void>; resolve: () => void } | null = null;
  return {
    get count() {
      return count;
    },
    whenNone() {
      if (count === 0) return Promise.resolve();
      if (!none) {
        let resolve = () => {};
        const promise = new Promise<void>((settle) => (resolve = settle));
        none = { promise, resolve };
      }
      return none.promise;
    },
    watch(server) {
      server.on('request', (_request, response) => {
        count += 1;
        // 'close' comes once the answer is sent, or once the socket is gone without it.
        response.once('close', () => {
          count -= 1;
          if (count > 0 || !none) return;
          none.resolve();
          none = null;
        });
      });
    },
  };
}
