import type { DebtRecoveryBatch, DebtRecoveryEligibleCharge, DebtRecoveryHandover, DebtRecoveryUpdateImport } from '@parkpatrol/shared';
import { apiClient } from '../../../lib/api-client.ts';

export const DEBT_RECOVERY_ELIGIBLE_FAILED = 'Failed to load the charges that can go to the agency';
export const DEBT_RECOVERY_BATCHES_FAILED = 'Failed to load the batches handed over';
export const DEBT_RECOVERY_EXPORT_FAILED = 'Failed to hand the charges over';
export const DEBT_RECOVERY_HANDOVERS_FAILED = 'Failed to load the hand-overs being made';
export const DEBT_RECOVERY_DOWNLOAD_FAILED = 'Failed to download the batch';
export const DEBT_RECOVERY_UPDATES_FAILED = 'Failed to import the agency’s outcomes';

export async function getEligibleCharges(): Promise<DebtRecoveryEligibleCharge[]> {
  return (await apiClient.call('GET /debt-recovery/eligible', { fallbackMessage: DEBT_RECOVERY_ELIGIBLE_FAILED })).items;
}

export async function getDebtRecoveryBatches(): Promise<DebtRecoveryBatch[]> {
  return (await apiClient.call('GET /debt-recovery/exports', { fallbackMessage: DEBT_RECOVERY_BATCHES_FAILED })).items;
}

/** All or none: a 409's fields name each refused charge (by id) with why; else the hand-over, for the server's job to pack. */
export function handOverToAgency(pcnIds: readonly string[]): Promise<DebtRecoveryHandover> {
  return apiClient.call('POST /debt-recovery/exports', { json: { pcnIds }, fallbackMessage: DEBT_RECOVERY_EXPORT_FAILED });
}

export function getHandover(id: string): Promise<DebtRecoveryHandover> {
  return apiClient.call('GET /debt-recovery/handovers/:id', { params: { id }, fallbackMessage: DEBT_RECOVERY_HANDOVERS_FAILED });
}

/** Those still being made and those that failed in the last day. */
export async function getUnfinishedHandovers(): Promise<DebtRecoveryHandover[]> {
  return (await apiClient.call('GET /debt-recovery/handovers', { fallbackMessage: DEBT_RECOVERY_HANDOVERS_FAILED })).items;
}

/** The batch's ZIP, the same bytes as when it was made. */
export function downloadDebtRecoveryBatch(id: string): Promise<Blob> {
  return apiClient.download('GET /debt-recovery/exports/:id', { params: { id }, fallbackMessage: DEBT_RECOVERY_DOWNLOAD_FAILED });
}

/** `preview`: checked and undone, nothing changes. */
export function importAgencyOutcomes(fileName: string, csv: string, preview: boolean): Promise<DebtRecoveryUpdateImport> {
  return apiClient.call('POST /debt-recovery/updates', { json: { fileName, csv, preview }, fallbackMessage: DEBT_RECOVERY_UPDATES_FAILED });
}
