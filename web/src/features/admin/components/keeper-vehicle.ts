import type { Keeper, KeeperInput } from '@parkpatrol/shared';

/** The DVLA's vehicle as one phrase, 'Blue Ford Focus'; empty when the reply gave none of it. */
export function keeperVehicle(keeper: Pick<Keeper, 'colour' | 'make' | 'model'>): string {
  return [keeper.colour, keeper.make, keeper.model].filter(Boolean).join(' ');
}

/**
 * The keeper as recorded, sent back with the admin's answer on the vehicle (PUT /pcns/{id}/keeper):
 * how both the review and the check on Notices to Keeper confirm or refuse it. 'Does not match' is
 * recorded as such (who and when), and no letter goes while it stands.
 */
export function keeperInputOf(keeper: Keeper, answer: 'MATCHES' | 'DOES_NOT_MATCH'): KeeperInput {
  const {
    source: _source,
    vehicleConfirmedAt: _at,
    vehicleConfirmedBy: _by,
    vehicleMismatchAt: _refusedAt,
    vehicleMismatchBy: _refusedBy,
    updatedAt: _updated,
    ...details
  } = keeper;
  return { ...details, vehicleConfirmed: answer === 'MATCHES', vehicleMismatch: answer === 'DOES_NOT_MATCH' };
}
