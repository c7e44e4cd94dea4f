import type { SentDocument } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const DOCUMENTS_FAILED = 'Failed to load the documents sent';
export const DOCUMENT_DOWNLOAD_FAILED = 'Failed to download the document';

/** What was sent for a charge, as kept (admins). */
export async function getSentDocuments(pcnId: string): Promise<SentDocument[]> {
  const { items } = await apiClient.call('GET /pcns/:id/documents', { params: { id: pcnId }, fallbackMessage: DOCUMENTS_FAILED });
  return items;
}

/** One kept document: the bytes as they were sent. */
export function downloadSentDocument(pcnId: string, documentId: string): Promise<Blob> {
  return apiClient.download('GET /pcns/:id/documents/:documentId', {
    params: { id: pcnId, documentId },
    fallbackMessage: DOCUMENT_DOWNLOAD_FAILED,
  });
}
