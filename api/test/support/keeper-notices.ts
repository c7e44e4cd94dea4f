import { randomUUID } from 'node:crypto';
import type { CarParkTerms, OperatorTerms, Pcn } from '@parkpatrol/shared';
import { insertCarParkTerms, insertOperatorTerms } from '../../src/repositories/terms.ts';
import { jpegUpload, postPcn, validOperatorTerms, validPcnFields } from '../fixtures.ts';
import type { TestApp } from '../test-app.ts';

const DAY = 24 * 60 * 60 * 1000;
const LONG_AGO = new Date(Date.UTC(2020, 0, 1)).toISOString();

export const LETTER_CAR_PARK_TERMS: CarParkTerms = {
  chargePence: 10000,
  reducedChargePence: 6000,
  reducedWithinDays: 14,
  signageTerms: 'Permit holders only. Parking charge £100.',
  jurisdiction: 'ENGLAND_AND_WALES',
};

export const LETTER_KEEPER = {
  title: 'Ms',
  firstNames: 'Kira',
  lastName: 'Keeper',
  companyName: '',
  addressLines: ['12 Acacia Avenue', 'Headingley', 'Leeds'],
  postcode: 'ls6 3aa',
  make: 'Ford',
  model: 'Focus',
  colour: 'Blue',
  vehicleConfirmed: true,
};

/**
 * Terms in force since 2020: the operator's (set once per app) and a car park's, written as if
 * an admin had set them then, so notices dated in the past were issued under them.
 */
export async function termsSinceLongAgo(t: TestApp, carParkId: string): Promise<void> {
  const actor = { id: null, name: 'Test set-up' };
  const existing = await t.db.selectFrom('operator_terms').select('id').where('created_at', '<=', LONG_AGO).limit(1).executeTakeFirst();
  if (!existing) {
    await insertOperatorTerms(t.db, { terms: validOperatorTerms() as OperatorTerms, changes: {}, actor, now: LONG_AGO });
  }
  await t.db
    .updateTable('car_parks')
    .set({
      charge_pence: LETTER_CAR_PARK_TERMS.chargePence,
      reduced_charge_pence: LETTER_CAR_PARK_TERMS.reducedChargePence,
      reduced_within_days: LETTER_CAR_PARK_TERMS.reducedWithinDays,
      signage_terms: LETTER_CAR_PARK_TERMS.signageTerms,
    })
    .where('id', '=', carParkId)
    .execute();
  await insertCarParkTerms(t.db, {
    carParkId,
    terms: { ...LETTER_CAR_PARK_TERMS, minimumsOverrideReason: null, relevantLand: true },
    changes: {},
    actor,
    now: LONG_AGO,
  });
}

/**
 * A notice ready for its notice to keeper today: a ticket fixed to the windscreen 35 days ago
 * (paragraph 8: posted from about day 29 to day 54, whatever the weekends and bank holidays),
 * approved, with the keeper entered and the vehicle confirmed.
 */
export async function letterReadyPcn(
  t: TestApp,
  input: { officerToken: string; adminToken: string; carParkId: string; servedDaysAgo?: number; servedBy?: string; registration?: string },
): Promise<Pcn> {
  const servedAt = new Date(t.deps.now().getTime() - (input.servedDaysAgo ?? 35) * DAY).toISOString();
  const filed = await postPcn(t, input.officerToken, {
    ...validPcnFields(input.carParkId),
    vehicleRegistration: input.registration ?? `KP${randomUUID().slice(0, 5).toUpperCase()}`,
    images: [jpegUpload(11)],
    observedAt: servedAt,
    issuedAt: servedAt,
    noticeServedBy: input.servedBy ?? 'AFFIXED',
    noticeServedAt: servedAt,
  });
  if (filed.status !== 201) throw new Error(`filing failed: ${filed.status} ${filed.text}`);
  const id = (filed.json.data as Pcn).id;
  for (const status of ['UNDER_REVIEW', 'APPROVED']) {
    const moved = await t.request('PATCH', `/pcns/${id}/status`, { token: input.adminToken, json: { status } });
    if (moved.status !== 200) throw new Error(`status failed: ${moved.status} ${moved.text}`);
  }
  const keeper = await t.request('PUT', `/pcns/${id}/keeper`, { token: input.adminToken, json: LETTER_KEEPER });
  if (keeper.status !== 200) throw new Error(`keeper failed: ${keeper.status} ${keeper.text}`);
  return keeper.json.data as Pcn;
}
