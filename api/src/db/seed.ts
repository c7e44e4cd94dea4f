import { randomUUID } from 'node:crypto';
import { hashPassword } from '../auth/passwords.ts';
import { COLLECTION_SETTING_DEFAULTS, type OperatorTerms } from '@parkpatrol/shared';
import { diffTerms, insertCarParkTerms, insertOperatorTerms, type CarParkTermsRecord } from '../repositories/terms.ts';
import type { Db } from './database.ts';
import { lockForWrites } from './dialect.ts';

export const DEMO_ACCOUNTS = {
  admin: { email: 'admin@example.com', password: 'admin123', firstName: 'Ada', lastName: 'Admin', role: 'SUPER_ADMIN' },
  officer: { email: 'officer@example.com', password: 'officer123', firstName: 'Olivia', lastName: 'Officer', role: 'USER' },
  second: { email: 'sam@example.com', password: 'sam12345', firstName: 'Sam', lastName: 'Steward', role: 'USER' },
} as const;

const DEMO_CAR_PARKS = [
  { name: 'Riverside Retail Park', siteCode: 'RRP01', address: '1 Riverside Way, Leeds', postcode: 'LS1 4AB', assignOfficer: true },
  { name: 'Station Road Car Park', siteCode: 'SRC02', address: '12 Station Road, York', postcode: 'YO1 6HT', assignOfficer: true },
  { name: 'Hospital Visitor Car Park', siteCode: 'HVC03', address: 'Infirmary Lane, Harrogate', postcode: 'HG2 7SX', assignOfficer: false },
];

/**
 * Fills an empty database with demo accounts and car parks. Returns false when users exist.
 * Several API processes may start together on one PostgreSQL: the emptiness check is repeated
 * under a lock inside the transaction, so exactly one of them seeds.
 */
export async function seedDemoData(db: Db): Promise<boolean> {
  const existing = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (existing) return false;
  const now = new Date().toISOString();
  const ids: Record<keyof typeof DEMO_ACCOUNTS, string> = { admin: randomUUID(), officer: randomUUID(), second: randomUUID() };
  const hashes = await Promise.all(Object.values(DEMO_ACCOUNTS).map((a) => hashPassword(a.password)));
  return db.transaction().execute(async (trx) => {
    await lockForWrites(trx, 'seed');
    if (await trx.selectFrom('users').select('id').limit(1).executeTakeFirst()) return false;
    const keys = Object.keys(DEMO_ACCOUNTS) as Array<keyof typeof DEMO_ACCOUNTS>;
    for (const [index, key] of keys.entries()) {
      const account = DEMO_ACCOUNTS[key];
      await trx
        .insertInto('users')
        .values({
          id: ids[key],
          email: account.email,
          first_name: account.firstName,
          last_name: account.lastName,
          role: account.role,
          password_hash: hashes[index] ?? null,
          is_active: true,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    for (const park of DEMO_CAR_PARKS) {
      const id = randomUUID();
      await trx
        .insertInto('car_parks')
        .values({
          id,
          name: park.name,
          site_code: park.siteCode,
          address: park.address,
          postcode: park.postcode,
          is_active: true,
          ...DEMO_CAR_PARK_TERMS_ROW,
          created_at: now,
          updated_at: now,
        })
        .execute();
      await insertCarParkTerms(trx, {
        carParkId: id,
        terms: DEMO_CAR_PARK_TERMS,
        changes: diffTerms(null, DEMO_CAR_PARK_TERMS),
        actor: DEMO_ACTOR,
        now: DEMO_TERMS_SINCE,
      });
      if (park.assignOfficer) {
        await trx.insertInto('car_park_users').values({ car_park_id: id, user_id: ids.officer, created_at: now }).execute();
      }
    }
    await insertOperatorTerms(trx, {
      terms: DEMO_OPERATOR_TERMS,
      changes: diffTerms(null, DEMO_OPERATOR_TERMS),
      actor: DEMO_ACTOR,
      now: DEMO_TERMS_SINCE,
    });
    return true;
  });
}

const DEMO_ACTOR = { id: null, name: 'Demo data' };
/**
 * The demo operator has had its terms since 2020: a notice is issued under the terms in force
 * when it was issued (decision 0017), and a demo notice dated weeks back, ready for its notice
 * to keeper, must find some.
 */
const DEMO_TERMS_SINCE = '2020-01-01T00:00:00.000Z';

/** A fictional creditor, so a demo notice prints whole. An operator checks the appeals service's details before going live. */
const DEMO_OPERATOR_TERMS: OperatorTerms = {
  creditorName: 'ParkPatrol Demo Parking Ltd',
  creditorAddress: 'PO Box 1234\nLeeds\nLS1 4AP',
  creditorPhone: '0113 496 0000',
  creditorEmail: 'charges@parkpatrol.example',
  creditorWebsite: 'parkpatrol.example/charge',
  howToPay:
    'Pay online at parkpatrol.example/pay or by phone on 0113 496 0000 (card), quoting the charge reference. Cheques payable to ParkPatrol Demo Parking Ltd, by post to PO Box 1234, Leeds, LS1 4AP.',
  appealsService: 'POPLA',
  appealsServiceContact: 'POPLA, PO Box 1270, Warrington, WA4 9RL\nwww.popla.co.uk',
  ...COLLECTION_SETTING_DEFAULTS,
};

/** Within the sector's limits (shared's sector-limits.ts), as are the demo's 5 and 10 minutes' periods: no reason is needed. */
const DEMO_CAR_PARK_TERMS: CarParkTermsRecord = {
  chargePence: 10_000,
  reducedChargePence: 6_000,
  reducedWithinDays: 14,
  signageTerms: 'Private land. Parking for permit holders only, displayed in the windscreen. Failure to comply: a parking charge of £100.',
  jurisdiction: 'ENGLAND_AND_WALES',
  considerationMinutes: 5,
  graceMinutes: 10,
  stayAppliesByDefault: false,
  minimumsOverrideReason: null,
  relevantLand: true,
};

const DEMO_CAR_PARK_TERMS_ROW = {
  charge_pence: DEMO_CAR_PARK_TERMS.chargePence,
  reduced_charge_pence: DEMO_CAR_PARK_TERMS.reducedChargePence,
  reduced_within_days: DEMO_CAR_PARK_TERMS.reducedWithinDays,
  signage_terms: DEMO_CAR_PARK_TERMS.signageTerms,
  jurisdiction: DEMO_CAR_PARK_TERMS.jurisdiction,
  consideration_minutes: DEMO_CAR_PARK_TERMS.considerationMinutes,
  grace_minutes: DEMO_CAR_PARK_TERMS.graceMinutes,
  stay_applies_by_default: DEMO_CAR_PARK_TERMS.stayAppliesByDefault,
  minimums_override_reason: DEMO_CAR_PARK_TERMS.minimumsOverrideReason,
};
