import {
  ERROR_MESSAGES,
  type BulkOnboardingResponse,
  type OnboardingCandidatesResponse,
  type OnboardingResult,
  type OnboardingSortKey,
  type SortOrder,
} from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** Admin notes are optional and trimmed before sending (docs/product.md, Client Onboarding). */
function notesPayload(adminNotes: string): { adminNotes?: string } {
  const notes = adminNotes.trim();
  return notes ? { adminNotes: notes } : {};
}

/** Everyone but the signed-in admin, with password set, last onboarding email and last sign-in; and where the links point. */
export function getOnboardingCandidates(query: {
  sort: OnboardingSortKey;
  order: SortOrder;
  neverSignedIn: boolean;
}): Promise<OnboardingCandidatesResponse> {
  const searchParams = { sort: query.sort, order: query.order, neverSignedIn: query.neverSignedIn ? 'true' : undefined };
  return apiClient.call('GET /onboarding/users', { query: searchParams, fallbackMessage: ERROR_MESSAGES.fetchUsers });
}

export function sendOnboardingEmail(userId: string, adminNotes = ''): Promise<OnboardingResult> {
  return apiClient.call('POST /onboarding/send/:userId', {
    params: { userId },
    json: notesPayload(adminNotes),
    fallbackMessage: ERROR_MESSAGES.sendOnboardingEmail,
  });
}

export function sendBulkOnboardingEmails(userIds: readonly string[], adminNotes: string): Promise<BulkOnboardingResponse> {
  return apiClient.call('POST /onboarding/send-bulk', {
    json: { userIds, ...notesPayload(adminNotes) },
    fallbackMessage: ERROR_MESSAGES.sendOnboardingEmails,
  });
}
