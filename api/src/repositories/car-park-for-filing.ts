import type { Db } from '../db/database.ts';

export type CarParkForFiling = {
  isActive: boolean;
  isAssigned: boolean;
  considerationMinutes: number;
  graceMinutes: number;
  stayAppliesByDefault: boolean;
  /** When the car park was set up: no officer could have chosen it on a phone before. */
  createdAt: string;
};

/** Car park checks for filing: whether it exists and is active, whether the user is assigned, and its stay rules. */
export async function findCarParkForFiling(db: Db, carParkId: string, userId: string): Promise<CarParkForFiling | undefined> {
  const row = await db
    .selectFrom('car_parks')
    .leftJoin('car_park_users', (join) =>
      join.onRef('car_park_users.car_park_id', '=', 'car_parks.id').on('car_park_users.user_id', '=', userId),
    )
    .select([
      'car_parks.is_active',
      'car_parks.consideration_minutes',
      'car_parks.grace_minutes',
      'car_parks.stay_applies_by_default',
      'car_parks.created_at',
      'car_park_users.user_id',
    ])
    .where('car_parks.id', '=', carParkId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    isActive: row.is_active,
    isAssigned: row.user_id !== null,
    considerationMinutes: row.consideration_minutes,
    graceMinutes: row.grace_minutes,
    stayAppliesByDefault: row.stay_applies_by_default,
    createdAt: row.created_at,
  };
}
