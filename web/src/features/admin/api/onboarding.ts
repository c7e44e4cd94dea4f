import {
  ERROR_MESSAGES,
  type BulkOnboardingResponse,
  type OnboardingCandidatesResponse,
  type OnboardingSortKey,
  type SortOrder,
} from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** Spec section 5: admin notes are optional and trimmed before sending. */
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
  return apiClient.get<OnboardingCandidatesResponse>('onboarding/users', { searchParams, fallbackMessage: ERROR_MESSAGES.fetchUsers });
}

export function sendOnboardingEmail(userId: string, adminNotes = ''): Promise<void> {
  return apiClient.post<void>(`onboarding/send/${encodeURIComponent(userId)}`, {
    json: notesPayload(adminNotes),
    fallbackMessage: ERROR_MESSAGES.sendOnboardingEmail,
  });
}

export function sendBulkOnboardingEmails(userIds: readonly string[], adminNotes: string): Promise<BulkOnboardingResponse> {
  return apiClient.post<BulkOnboardingResponse>('onboarding/send-bulk', {
    json: { userIds, ...notesPayload(adminNotes) },
    fallbackMessage: ERROR_MESSAGES.sendOnboardingEmails,
  });
}
