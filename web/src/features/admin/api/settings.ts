import { OPERATOR_LOGO_FIELD, type OperatorLogoResponse, type OperatorSettingsResponse, type OperatorTermsInput } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const OPERATOR_SETTINGS_LOAD_FAILED = 'Failed to load the operator settings';
export const OPERATOR_SETTINGS_SAVE_FAILED = 'Failed to save the operator settings';
export const OPERATOR_LOGO_SAVE_FAILED = 'Failed to save the logo';

export function getOperatorSettings(): Promise<OperatorSettingsResponse> {
  return apiClient.call('GET /settings/operator', { fallbackMessage: OPERATOR_SETTINGS_LOAD_FAILED });
}

export function saveOperatorSettings(input: OperatorTermsInput): Promise<OperatorSettingsResponse> {
  return apiClient.call('PUT /settings/operator', { json: input, fallbackMessage: OPERATOR_SETTINGS_SAVE_FAILED });
}

export function uploadOperatorLogo(file: File): Promise<OperatorLogoResponse> {
  const body = new FormData();
  body.append(OPERATOR_LOGO_FIELD, file);
  return apiClient.call('PUT /settings/operator/logo', { body, fallbackMessage: OPERATOR_LOGO_SAVE_FAILED });
}

export function removeOperatorLogo(): Promise<OperatorLogoResponse> {
  return apiClient.call('DELETE /settings/operator/logo', { fallbackMessage: OPERATOR_LOGO_SAVE_FAILED });
}
