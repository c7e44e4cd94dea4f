import type { KeeperDetails, KeeperInput, KeeperSource } from '@parkpatrol/shared';
import type { AuthUser } from '../app-env.ts';
import type { Db } from '../db/database.ts';
import { findKeeper, saveKeeper } from '../repositories/keepers.ts';
import { auditEntry, insertAuditEntries } from '../repositories/pcn-audit-trail.ts';
import { findPcnRowById } from '../repositories/pcn-rows.ts';
import { pcnNotFound } from './pcn-access.ts';

const DETAIL_FIELDS = [
  'keeperType',
  'title',
  'firstNames',
  'lastName',
  'companyName',
  'addressLines',
  'postcode',
  'make',
  'model',
  'colour',
] as const;
const VEHICLE_FIELDS = ['make', 'model', 'colour'] as const;

export type KeeperRecord = {
  pcnId: string;
  keeper: KeeperInput;
  source: KeeperSource;
  /** true or false as the admin ticked it; 'keep' (a keeper reply) leaves it as it stands while the vehicle is the same. */
  confirm: boolean | 'keep';
  /** The admin's answer that the vehicle does not match the photos; 'keep' (left out) likewise. A confirmation withdraws it. */
  mismatch?: boolean | 'keep';
  user: AuthUser;
  now: Date;
};

/**
 * Records a notice's registered keeper, from an admin's entry or a keeper reply. The admin's
 * confirmation that the DVLA's vehicle matches the photos stands while that vehicle does: new
 * make, model or colour asks for it again. The audit names the fields that changed and where
 * they came from, not the keeper's name or address, which retention removes with the keeper.
 */
/** An admin's entry of the keeper (PUT /pcns/{id}/keeper): a notice that does not exist is a 404. */
export async function enterKeeper(db: Db, input: Omit<KeeperRecord, 'source' | 'confirm'>): Promise<void> {
  const row = await findPcnRowById(db, input.pcnId);
  if (!row) throw pcnNotFound();
  await recordKeeper(db, {
    ...input,
    pcnId: row.id,
    source: 'MANUAL',
    confirm: input.keeper.vehicleConfirmed,
    mismatch: input.keeper.vehicleMismatch ?? 'keep',
  });
}

export async function recordKeeper(db: Db, input: KeeperRecord): Promise<'APPLIED' | 'UNCHANGED'> {
  return db.transaction().execute((trx) => recordKeeperIn(trx, input));
}

/** The same, inside a transaction the caller holds (a batch of keeper replies commits together). */
export async function recordKeeperIn(trx: Db, input: KeeperRecord): Promise<'APPLIED' | 'UNCHANGED'> {
  const now = input.now.toISOString();
  const actorName = `${input.user.firstName} ${input.user.lastName}`.trim();
  const { vehicleConfirmed: _ticked, vehicleMismatch: _refused, ...details } = input.keeper;
  const existing = await findKeeper(trx, input.pcnId);
  const differs = (field: (typeof DETAIL_FIELDS)[number]) =>
    !existing || JSON.stringify(existing[field]) !== JSON.stringify((details as KeeperDetails)[field]);
  const changedFields = DETAIL_FIELDS.filter(differs);
  const vehicleChanged = VEHICLE_FIELDS.some(differs);
  const wasConfirmed = existing?.vehicleConfirmedAt != null;
  const isConfirmed = input.confirm === 'keep' ? wasConfirmed && !vehicleChanged : input.confirm;
  const wasRefused = existing?.vehicleMismatchAt != null;
  const mismatch = input.mismatch ?? 'keep';
  const isRefused = !isConfirmed && (mismatch === 'keep' ? wasRefused && !vehicleChanged : mismatch);
  if (changedFields.length === 0 && isConfirmed === wasConfirmed && isRefused === wasRefused) return 'UNCHANGED';
  // An answer about the same vehicle keeps who gave it and when; a new answer, or a new vehicle, is the admin's now.
  const answer = (stands: boolean, was: boolean, at: string | null | undefined, by: string | null | undefined) =>
    stands ? (was && !vehicleChanged ? { at: at!, by: by ?? '' } : { at: now, by: actorName }) : null;
  const confirmed = answer(isConfirmed, wasConfirmed, existing?.vehicleConfirmedAt, existing?.vehicleConfirmedBy);
  const refused = answer(isRefused, wasRefused, existing?.vehicleMismatchAt, existing?.vehicleMismatchBy);
  await saveKeeper(trx, { pcnId: input.pcnId, details, source: input.source, confirmed, mismatch: refused, now });
  const changes: Record<string, { from: unknown; to: unknown }> = {};
  for (const field of changedFields) changes[`keeper.${field}`] = { from: existing ? 'recorded' : null, to: 'recorded' };
  if (isConfirmed !== wasConfirmed) changes.vehicleConfirmed = { from: wasConfirmed, to: isConfirmed };
  if (isRefused !== wasRefused) changes.vehicleMismatch = { from: wasRefused, to: isRefused };
  changes.keeperSource = { from: existing?.source ?? null, to: input.source };
  await insertAuditEntries(trx, [auditEntry(input.pcnId, 'keeper_changed', input.user, null, now, changes)]);
  return 'APPLIED';
}
