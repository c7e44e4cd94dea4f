import type { CollectionLetterKind, CollectionLetterQueue, CollectionLettersPostedResponse } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const COLLECTION_QUEUE_FAILED = 'Failed to load the charges due a letter';
export const COLLECTION_LETTERS_FAILED = 'Failed to generate the letters';
export const COLLECTION_POSTED_FAILED = 'Failed to mark the letters posted';

/** The charges whose letter of `kind` is due today and still unpaid, earliest due first. */
export function getCollectionLetterQueue(kind: CollectionLetterKind): Promise<CollectionLetterQueue> {
  return apiClient.call('GET /collection-letters', { query: { kind }, fallbackMessage: COLLECTION_QUEUE_FAILED });
}

/** One PDF of letters dated `postOn`, each also kept with its charge; a 422's fields name each refused charge (by id) with why. */
export function generateCollectionLetters(kind: CollectionLetterKind, pcnIds: readonly string[], postOn: string): Promise<Blob> {
  return apiClient.download('POST /collection-letters/letters', {
    json: { kind, pcnIds, postOn },
    fallbackMessage: COLLECTION_LETTERS_FAILED,
  });
}

export function markCollectionLettersPosted(
  kind: CollectionLetterKind,
  pcnIds: readonly string[],
  postedOn: string,
  proofReference: string,
): Promise<CollectionLettersPostedResponse> {
  return apiClient.call('POST /collection-letters/posted', {
    json: { kind, pcnIds, postedOn, proofReference },
    fallbackMessage: COLLECTION_POSTED_FAILED,
  });
}
