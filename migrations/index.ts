import type { Migration } from 'kysely';
import { postgresMigrations } from './postgres/index.ts';
import { sqliteMigrations } from './sqlite/index.ts';
import * as enumeratedColumnChecks from './0031_enumerated_column_checks.ts';
import * as nativePostgresTypes from './0032_native_postgres_types.ts';
import * as paymentsAndCollection from './0033_payments_and_collection.ts';
import * as permitsAndLandowners from './0034_permits_and_landowners.ts';
import * as cancellationRequestAudit from './0036_cancellation_request_audit.ts';
import * as appealWithdrawal from './0037_appeal_withdrawal.ts';
import * as vehicleMismatch from './0038_vehicle_mismatch.ts';
import * as operatorLogo from './0039_operator_logo.ts';
import * as letterBatches from './0040_letter_batches.ts';
import * as keeperQueueByStatus from './0041_keeper_queue_by_status.ts';
import * as evidencePacks from './0042_evidence_packs.ts';
import * as debtRecoveryHandovers from './0043_debt_recovery_handovers.ts';
import * as pcnPhotoSummary from './0044_pcn_photo_summary.ts';
import * as countsMoveOnlyOnChange from './0045_counts_move_only_on_change.ts';

/**
 * Every schema change from here on, written once for both engines with Kysely's schema builder
 * and the dialect module (api/src/db/dialect.ts) for what differs. Numbered after the last of
 * both frozen histories (SQLite's ends at 0030), so each runs after its engine's history.
 * Add new ones at the end; never edit one that has landed.
 */
export const migrations: Record<string, Migration> = {
  '0031_enumerated_column_checks': enumeratedColumnChecks,
  '0032_native_postgres_types': nativePostgresTypes,
  '0033_payments_and_collection': paymentsAndCollection,
  '0034_permits_and_landowners': permitsAndLandowners,
  '0036_cancellation_request_audit': cancellationRequestAudit,
  '0037_appeal_withdrawal': appealWithdrawal,
  '0038_vehicle_mismatch': vehicleMismatch,
  '0039_operator_logo': operatorLogo,
  '0040_letter_batches': letterBatches,
  '0041_keeper_queue_by_status': keeperQueueByStatus,
  '0042_evidence_packs': evidencePacks,
  '0043_debt_recovery_handovers': debtRecoveryHandovers,
  '0044_pcn_photo_summary': pcnPhotoSummary,
  '0045_counts_move_only_on_change': countsMoveOnlyOnChange,
};

/** An engine's migrations in the order they run: its frozen history, then the shared ones. */
export function migrationsFor(engine: 'sqlite' | 'postgres'): Record<string, Migration> {
  return { ...(engine === 'postgres' ? postgresMigrations : sqliteMigrations), ...migrations };
}
