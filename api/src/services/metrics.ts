import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The server's Prometheus metrics (prom-client), served on /metrics to a holder of METRICS_TOKEN
 * (routes/metrics.ts). One registry per app, not prom-client's global one, so tests that build
 * several apps in one process each count their own.
 */
export type Metrics = {
  registry: Registry;
  /** Every answer, by method, matched route pattern (never the raw path: ids would explode it) and status. */
  requestDuration: Histogram<'method' | 'route' | 'status'>;
  /** Notices and photos sent by phones' outboxes, by kind and outcome (stored, replayed, refused). */
  outboxUploads: Counter<'kind' | 'outcome'>;
  /** Password checks refused by a limit before the hash ran, by which limit. */
  signInLimited: Counter<'limit'>;
  /** Failures of the evidence store (disk or S3), by operation. */
  evidenceStoreErrors: Counter<'operation'>;
  /** Letters drawn, by kind: each decision letter once, when decided (or on its first download if decided before letters were kept). */
  lettersDrawn: Counter<'kind'>;
};

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  // Memory, CPU, event-loop lag and handles of this process: what to look at when it slows.
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    requestDuration: new Histogram({
      name: 'parkpatrol_http_request_duration_seconds',
      help: 'Time to answer an HTTP request, by route pattern.',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
    outboxUploads: new Counter({
      name: 'parkpatrol_outbox_uploads_total',
      help: "Notices and observations sent by phones' outboxes, by outcome.",
      labelNames: ['kind', 'outcome'],
      registers: [registry],
    }),
    signInLimited: new Counter({
      name: 'parkpatrol_sign_in_limited_total',
      help: 'Password checks refused by a limit before the hash ran.',
      labelNames: ['limit'],
      registers: [registry],
    }),
    evidenceStoreErrors: new Counter({
      name: 'parkpatrol_evidence_store_errors_total',
      help: 'Failures of the evidence store (disk or S3).',
      labelNames: ['operation'],
      registers: [registry],
    }),
    lettersDrawn: new Counter({
      name: 'parkpatrol_letters_drawn_total',
      help: 'Letters drawn as PDF, by kind.',
      labelNames: ['kind'],
      registers: [registry],
    }),
  };
}

type StoreLike = { [K in 'place' | 'put' | 'delete' | 'open' | 'read' | 'sweepOrphans']: (...args: never[]) => Promise<unknown> };

/** The same store, counting each failed operation in `evidenceStoreErrors` before the error goes on. */
export function countingStoreErrors<S extends StoreLike>(store: S, metrics: Pick<Metrics, 'evidenceStoreErrors'>): S {
  const counted = Object.create(store) as S;
  for (const operation of ['place', 'put', 'delete', 'open', 'read', 'sweepOrphans'] as const) {
    const original = store[operation].bind(store) as (...args: unknown[]) => Promise<unknown>;
    (counted as Record<string, unknown>)[operation] = (...args: unknown[]) =>
      original(...args).catch((error: unknown) => {
        metrics.evidenceStoreErrors.inc({ operation });
        throw error;
      });
  }
  return counted;
}
