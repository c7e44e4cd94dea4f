import type { DriverInput, HirerInput, Pcn, PcnLetterKind, PcnLetterPosting } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const HIRER_SAVE_FAILED = 'Failed to save the hirer';
export const DRIVER_SAVE_FAILED = 'Failed to save the named driver';
export const LETTER_FAILED = 'Failed to make the letter';
export const LETTER_POSTED_FAILED = 'Failed to mark the letter posted';

export function saveHirer(pcnId: string, hirer: HirerInput): Promise<Pcn> {
  return apiClient.call('PUT /pcns/:id/hirer', { params: { id: pcnId }, json: hirer, fallbackMessage: HIRER_SAVE_FAILED });
}

export function saveNamedDriver(pcnId: string, driver: DriverInput): Promise<Pcn> {
  return apiClient.call('PUT /pcns/:id/driver', { params: { id: pcnId }, json: driver, fallbackMessage: DRIVER_SAVE_FAILED });
}

/** The letter dated `postOn`, kept with the notice; a 422's fields name the notice (by id) with why it cannot go. */
export function makePcnLetter(pcnId: string, kind: PcnLetterKind, postOn: string): Promise<Blob> {
  return apiClient.download('POST /pcns/:id/letters', { params: { id: pcnId }, json: { kind, postOn }, fallbackMessage: LETTER_FAILED });
}

export function markPcnLetterPosted(
  pcnId: string,
  kind: PcnLetterKind,
  postedOn: string,
  proofReference: string,
): Promise<PcnLetterPosting> {
  return apiClient.call('POST /pcns/:id/letters/posted', {
    params: { id: pcnId },
    json: { kind, postedOn, proofReference },
    fallbackMessage: LETTER_POSTED_FAILED,
  });
}
