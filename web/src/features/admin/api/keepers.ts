import {
  IDEMPOTENCY_KEY_HEADER,
  type KeeperInput,
  type KeeperNoticesPostedResponse,
  type KeeperReplyImport,
  type LetterBatch,
  type LetterBatchListResponse,
  type Pcn,
  type paymentInputSchema,
} from '@parkpatrol/shared';
import type { z } from 'zod';

type PaymentInput = z.output<typeof paymentInputSchema>;
import { apiClient } from '../../../lib/api-client.ts';

export const KEEPER_SAVE_FAILED = 'Failed to save the keeper details';
export const KEEPER_REPLIES_FAILED = 'Failed to import the keeper replies';
export const KEEPER_LETTERS_FAILED = 'Failed to generate the notices to keeper';
export const KEEPER_POSTED_FAILED = 'Failed to mark the notices posted';

export function saveKeeper(pcnId: string, keeper: KeeperInput): Promise<Pcn> {
  return apiClient.call('PUT /pcns/:id/keeper', { params: { id: pcnId }, json: keeper, fallbackMessage: KEEPER_SAVE_FAILED });
}

export function importKeeperReplies(fileName: string, csv: string): Promise<KeeperReplyImport> {
  return apiClient.call('POST /keeper-replies', { json: { fileName, csv }, fallbackMessage: KEEPER_REPLIES_FAILED });
}

export const KEEPER_BATCH_FAILED = 'Failed to read how the letters are coming on';

/** Letters dated `postOn` made as a job, each kept with its notice; a 422's fields name each refused notice (by id) with why. */
export function startKeeperLetterBatch(pcnIds: readonly string[], postOn: string): Promise<LetterBatch> {
  return apiClient.call('POST /keeper-notices/batches', { json: { pcnIds, postOn }, fallbackMessage: KEEPER_LETTERS_FAILED });
}

export function getKeeperLetterBatch(id: string): Promise<LetterBatch> {
  return apiClient.call('GET /keeper-notices/batches/:id', { params: { id }, fallbackMessage: KEEPER_BATCH_FAILED });
}

export function listKeeperLetterBatches(): Promise<LetterBatchListResponse> {
  return apiClient.call('GET /keeper-notices/batches', { fallbackMessage: KEEPER_BATCH_FAILED });
}

/** A ready batch's one PDF: its letters' pages in the order chosen. */
export function downloadKeeperLetterBatch(id: string): Promise<Blob> {
  return apiClient.download('GET /keeper-notices/batches/:id/file', { params: { id }, fallbackMessage: KEEPER_LETTERS_FAILED });
}

export function markKeeperNoticesPosted(
  pcnIds: readonly string[],
  postedOn: string,
  proofReference: string,
): Promise<KeeperNoticesPostedResponse> {
  return apiClient.call('POST /keeper-notices/posted', {
    json: { pcnIds, postedOn, proofReference },
    fallbackMessage: KEEPER_POSTED_FAILED,
  });
}

export const PAYMENT_FAILED = 'Failed to record the payment';

/** A payment, once per attempt: the form keeps its key across retries, so a lost answer sent again records no second payment. */
export function recordPayment(pcnId: string, payment: PaymentInput, idempotencyKey: string): Promise<Pcn> {
  return apiClient.call('POST /pcns/:id/payments', {
    params: { id: pcnId },
    json: payment,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    fallbackMessage: PAYMENT_FAILED,
  });
}
