import type { OperatorSettingsResponse, OperatorTermsInput } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const OPERATOR_SETTINGS_LOAD_FAILED = 'Failed to load the operator settings';
export const OPERATOR_SETTINGS_SAVE_FAILED = 'Failed to save the operator settings';

export function getOperatorSettings(): Promise<OperatorSettingsResponse> {
  return apiClient.call('GET /settings/operator', { fallbackMessage: OPERATOR_SETTINGS_LOAD_FAILED });
}

export function saveOperatorSettings(input: OperatorTermsInput): Promise<OperatorSettingsResponse> {
  return apiClient.call('PUT /settings/operator', { json: input, fallbackMessage: OPERATOR_SETTINGS_SAVE_FAILED });
}
