import {
  IDEMPOTENCY_KEY_HEADER,
  MONEY_TEXTS,
  REFUND_TEXTS,
  type MoneyAnalytics,
  type Pcn,
  type refundInputSchema,
} from '@parkpatrol/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

export type RefundInput = z.input<typeof refundInputSchema>;

/** A refund, once per attempt: the dialog keeps its key across retries, so a lost answer sent again refunds nothing more. */
export function refundPayment(pcnId: string, refund: RefundInput, idempotencyKey: string): Promise<Pcn> {
  return apiClient.call('POST /pcns/:id/refunds', {
    params: { id: pcnId },
    json: refund,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    fallbackMessage: REFUND_TEXTS.failed,
  });
}

type MoneyQuery = { carParkId?: string | undefined; weeks?: number | undefined };

function moneyParams(query: MoneyQuery): Record<string, string> {
  return {
    ...(query.carParkId ? { carParkId: query.carParkId } : {}),
    ...(query.weeks ? { weeks: String(query.weeks) } : {}),
  };
}

export function getMoneyAnalytics(query: MoneyQuery): Promise<MoneyAnalytics> {
  return apiClient.call('GET /analytics/money', { query: moneyParams(query), fallbackMessage: MONEY_TEXTS.fetchFailed });
}

/** The same figures as the charts, as a CSV. */
export function downloadMoneyCsv(query: MoneyQuery): Promise<Blob> {
  return apiClient.download('GET /analytics/money.csv', {
    query: moneyParams(query),
    fallbackMessage: MONEY_TEXTS.csvFailed,
    headers: { Accept: 'text/csv, application/json' },
  });
}

/** Every payment (for one car park, when chosen) with its refunds, for reconciliation. */
export function exportPaymentsCsv(query: {
  carParkId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
}): Promise<Blob> {
  return apiClient.download('GET /payments/export', {
    query: {
      ...(query.carParkId ? { carParkId: query.carParkId } : {}),
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
    },
    fallbackMessage: MONEY_TEXTS.paymentsExportFailed,
    headers: { Accept: 'text/csv, application/json' },
    // Years of payments are some megabytes: give a slow office link time.
    timeoutMs: 120_000,
  });
}
