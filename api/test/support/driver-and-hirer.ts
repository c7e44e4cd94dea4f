import { ukDate } from '@parkpatrol/shared';
import type { TestApp } from '../test-app.ts';
import { LETTER_KEEPER } from './keeper-notices.ts';

/** A lease company as the DVLA's keeper: it will name the hirer (Schedule 4, paragraph 13). */
export const HIRE_COMPANY_KEEPER = {
  ...LETTER_KEEPER,
  title: '',
  firstNames: '',
  lastName: '',
  companyName: 'Swift Vehicle Leasing Ltd',
  addressLines: ['Fleet House', '1 Depot Road', 'Reading'],
  postcode: 'RG1 1AA',
  keeperType: 'HIRE_COMPANY',
};

/** The hirer as the hire firm's documents name them, the three documents ticked as received. */
export function hirerInput(documentsGivenOn: string) {
  return {
    title: 'Mr',
    firstNames: 'Harry',
    lastName: 'Hirer',
    companyName: '',
    addressLines: ['3 Rental Row', 'Bristol'],
    postcode: 'bs1 4dj',
    hireAgreementReference: 'HA-55012',
    documentsGivenOn,
    hireFirmStatement: true,
    hireAgreementCopy: true,
    statementOfLiability: true,
  };
}

export const NAMED_DRIVER = {
  title: 'Ms',
  firstNames: 'Dana',
  lastName: 'Driver',
  addressLines: ['9 Mill Lane', 'York'],
  postcode: 'YO1 7HH',
  source: 'KEEPER_REPLY',
};

async function expectOk(response: Promise<{ status: number; text: string }>, what: string): Promise<void> {
  const answer = await response;
  if (answer.status !== 200) throw new Error(`${what} failed: ${answer.status} ${answer.text}`);
}

/** The notice to keeper made and marked posted today, as an admin would. */
export async function postKeeperNoticeToday(t: TestApp, adminToken: string, pcnId: string): Promise<void> {
  await expectOk(t.request('POST', '/keeper-notices/letters', { token: adminToken, json: { pcnIds: [pcnId] } }), 'letter');
  await expectOk(
    t.request('POST', '/keeper-notices/posted', { token: adminToken, json: { pcnIds: [pcnId], postedOn: ukDate(t.deps.now()) } }),
    'posting',
  );
}

/** A notice whose keeper is a hire firm that has been sent its notice to keeper today. */
export async function hireFirmGivenNotice(t: TestApp, adminToken: string, pcnId: string): Promise<void> {
  await expectOk(t.request('PUT', `/pcns/${pcnId}/keeper`, { token: adminToken, json: HIRE_COMPANY_KEEPER }), 'hire firm keeper');
  await postKeeperNoticeToday(t, adminToken, pcnId);
}

export async function nameDriver(t: TestApp, adminToken: string, pcnId: string): Promise<void> {
  await expectOk(t.request('PUT', `/pcns/${pcnId}/driver`, { token: adminToken, json: NAMED_DRIVER }), 'named driver');
}
