import { ERROR_MESSAGES, SERVER_MESSAGES } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export function requestPasswordReset(email: string): Promise<null> {
  return apiClient.call('POST /auth/forgot-password', {
    json: { email },
    skipRefresh: true,
    token: null,
    fallbackMessage: ERROR_MESSAGES.resetEmailFailed,
  });
}

export function resetPassword(token: string, password: string): Promise<null> {
  return apiClient.call('POST /auth/reset-password', {
    json: { token, password },
    skipRefresh: true,
    token: null,
    fallbackMessage: ERROR_MESSAGES.passwordResetFailed,
  });
}

/** Whether a reset link still works, without spending it (the screen asks before the form shows). */
export function checkResetToken(token: string): Promise<{ isValid: true }> {
  return apiClient.call('POST /auth/reset-password/check', {
    json: { token },
    skipRefresh: true,
    token: null,
    fallbackMessage: SERVER_MESSAGES.invalidResetToken,
  });
}
