import { ERROR_MESSAGES, type BulkOnboardingResponse } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

/** Spec section 5: admin notes are optional and trimmed before sending. */
function notesPayload(adminNotes: string): { adminNotes?: string } {
  const notes = adminNotes.trim();
  return notes ? { adminNotes: notes } : {};
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
