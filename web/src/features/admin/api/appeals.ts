import {
  IDEMPOTENCY_KEY_HEADER,
  type Appeal,
  type AppealDecisionInput,
  type AppealDecisionPreview,
  type AppealListResponse,
  type AppealSetAside,
  type AppealSortKey,
  type AppealStatus,
  type SortOrder,
} from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const APPEALS_FETCH_FAILED = 'Failed to fetch appeals';
export const APPEAL_FETCH_FAILED = 'Failed to fetch the appeal';
export const APPEALS_EXPORT_FAILED = 'Failed to export appeals';
export const APPEAL_DECISION_FAILED = 'Failed to record the decision';
export const APPEAL_PREVIEW_FAILED = 'Failed to prepare the decision letter: nothing was recorded';
export const APPEAL_CONSIDER_FAILED = 'Failed to take the appeal into consideration';
export const APPEAL_SET_ASIDE_FAILED = 'Failed to set the appeal aside';
export const APPEAL_LETTER_FAILED = 'Failed to download the decision letter';
export const APPEAL_ATTACHMENT_FAILED = 'Failed to load the attachment';
export const APPEAL_ENTRY_FAILED = 'Failed to record the appeal: nothing was recorded twice, so send it again';

/** The queue's filters and order: the list and its export read the same ones. */
export type AppealQuery = {
  /** null: every status. */
  status: AppealStatus | null;
  search: string;
  sort: AppealSortKey;
  order: SortOrder;
};

function queryParams(query: AppealQuery) {
  return { status: query.status, search: query.search.trim(), sort: query.sort, order: query.order };
}

export function getAppeals(query: AppealQuery & { page: number; limit: number }): Promise<AppealListResponse> {
  return apiClient.call('GET /appeals', {
    query: { page: query.page, limit: query.limit, ...queryParams(query) },
    fallbackMessage: APPEALS_FETCH_FAILED,
  });
}

/** 'Export CSV': every appeal the filters select, all pages, as the server writes it. */
export function exportAppealsCsv(query: AppealQuery): Promise<Blob> {
  return apiClient.download('GET /appeals/export.csv', {
    query: queryParams(query),
    fallbackMessage: APPEALS_EXPORT_FAILED,
    headers: { Accept: 'text/csv, application/json' },
  });
}

/** An appeal by email, post or phone, once per key: the form keeps its key, so a lost answer sent again makes no second appeal. */
export function enterAppeal(form: FormData, idempotencyKey: string): Promise<Appeal> {
  return apiClient.call('POST /appeals', {
    body: form,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    fallbackMessage: APPEAL_ENTRY_FAILED,
  });
}

export function getAppeal(id: string): Promise<Appeal> {
  return apiClient.call('GET /appeals/:id', { params: { id }, fallbackMessage: APPEAL_FETCH_FAILED });
}

/** The decision, once: a 409 means someone decided it first; a 400's details name the field. */
export function decideAppeal(id: string, decision: AppealDecisionInput): Promise<Appeal> {
  return apiClient.call('POST /appeals/:id/decision', { params: { id }, json: decision, fallbackMessage: APPEAL_DECISION_FAILED });
}

/** What the decision would record and the letter it would send, before it is recorded: the decision's own checks, nothing written. */
export function previewAppealDecision(id: string, decision: AppealDecisionInput): Promise<AppealDecisionPreview> {
  return apiClient.call('POST /appeals/:id/decision-preview', { params: { id }, json: decision, fallbackMessage: APPEAL_PREVIEW_FAILED });
}

/** A late appeal taken into consideration: it then holds the charge; a 409 means it changed meanwhile. */
export function considerAppeal(id: string): Promise<Appeal> {
  return apiClient.call('POST /appeals/:id/consider', { params: { id }, fallbackMessage: APPEAL_CONSIDER_FAILED });
}

/** An open appeal set aside as not the motorist's (decision 0032); a 409 means it was decided meanwhile. */
export function setAsideAppeal(id: string, reason: string): Promise<AppealSetAside> {
  return apiClient.call('POST /appeals/:id/set-aside', { params: { id }, json: { reason }, fallbackMessage: APPEAL_SET_ASIDE_FAILED });
}

/** The decision letter (PDF) as the motorist was sent it. */
export function getAppealLetter(id: string): Promise<Blob> {
  return apiClient.download('GET /appeals/:id/letter', {
    params: { id },
    fallbackMessage: APPEAL_LETTER_FAILED,
    headers: { Accept: 'application/pdf, application/json' },
  });
}

/** One of the motorist's files: behind the bearer token, so fetched as a Blob, never linked to. */
export function getAppealAttachment(appealId: string, attachmentId: string): Promise<Blob> {
  return apiClient.download('GET /appeals/:id/attachments/:attachmentId', {
    params: { id: appealId, attachmentId },
    fallbackMessage: APPEAL_ATTACHMENT_FAILED,
    headers: { Accept: 'image/*, application/pdf, application/json' },
  });
}
