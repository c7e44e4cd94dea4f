import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Pcn, PcnAuditResponse, PcnLetterPosting, PublicCharge, SentDocumentListResponse } from '@parkpatrol/shared';
import { silentLogger } from '../src/services/logger.ts';
import { purgeExpiredEvidence } from '../src/services/purge-expired-evidence.ts';
import { chargeToken } from './support/appeals.ts';
import { HIRE_COMPANY_KEEPER, hireFirmGivenNotice, hirerInput, NAMED_DRIVER, nameDriver } from './support/driver-and-hirer.ts';
import { letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { readPdfText } from './support/pdf.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * Letters to others than the registered keeper (decision 0027): the hirer a hire firm names
 * (Schedule 4, paragraphs 13 and 14), the driver a keeper or an appeal names, and the keeper on
 * land Schedule 4 does not reach (paragraph 3; England and Wales only). Each letter is read back
 * from its PDF against the statute's items. The clock starts at noon on Wednesday 4 February 2026.
 */
const NOW = Date.parse('2026-02-04T12:00:00.000Z');

async function letter(t: TestApp, token: string, pcnId: string, kind: string, postOn?: string) {
  const res = await t.app.request(`/api/pcns/${pcnId}/letters`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ kind, ...(postOn && { postOn }) }),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const isJson = res.headers.get('content-type')?.includes('json');
  return { status: res.status, bytes, json: isJson ? JSON.parse(new TextDecoder().decode(bytes)) : null };
}

async function keeperLetters(t: TestApp, token: string, pcnIds: string[]) {
  const res = await t.app.request('/api/keeper-notices/letters', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pcnIds }),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const isJson = res.headers.get('content-type')?.includes('json');
  return { status: res.status, bytes, json: isJson ? JSON.parse(new TextDecoder().decode(bytes)) : null };
}

describe('letters beyond the registered keeper', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;

  /** Moves the clock to noon on `date` (UK winter: noon UTC) and signs the admin in again. */
  async function clockAt(date: string) {
    t.clock.frozenAtMs = Date.parse(`${date}T12:00:00.000Z`);
    admin = { ...admin, token: (await t.login(admin.email, admin.password ?? '')).token };
    officer = { ...officer, token: (await t.login(officer.email, officer.password ?? '')).token };
  }

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Hana', lastName: 'Admin' });
    carParkId = (await t.createCarPark({ name: 'Station Road', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  const ready = () => letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId });

  it('a hire firm names the hirer: the notice to hirer goes inside its 21 days, refused before and after with why', async () => {
    await clockAt('2026-02-04');
    const pcn = await ready();
    const late = await ready();
    // The lease company is the keeper; its notice to keeper is posted today (Wednesday 4 February,
    // presumed given Friday 6 February).
    await hireFirmGivenNotice(t, admin.token, pcn.id);
    await hireFirmGivenNotice(t, admin.token, late.id);

    // The hire firm's notice to keeper asked for the hirer and the documents of paragraph 13(2).
    const kept = (await t.request('GET', `/pcns/${pcn.id}/documents`, { token: admin.token })).json.data as SentDocumentListResponse;
    const keeperLetter = kept.items.find((item) => item.kind === 'NOTICE_TO_KEEPER')!;
    const stored = await t.app.request(`/api/pcns/${pcn.id}/documents/${keeperLetter.id}`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const toFirm = (await readPdfText(new Uint8Array(await stored.arrayBuffer()))).flat;
    expect(toFirm).toContain('If the vehicle was hired out');
    expect(toFirm).toContain('within 28 days beginning with the day after that on which this notice is given (by 6 Mar 2026)');
    expect(toFirm).toContain(
      '(a) a statement signed by or on behalf of your firm that at that time the vehicle was hired to a named person under a hire agreement;',
    );
    expect(toFirm).toContain('(b) a copy of the hire agreement; and');
    expect(toFirm).toContain('(c) a copy of a statement of liability signed by the hirer under that hire agreement');

    // A registered keeper (not a hire firm) has no hirer, and its letter asks for none.
    const plain = await ready();
    const toPerson = await keeperLetters(t, admin.token, [plain.id]);
    expect(toPerson.status).toBe(200);
    expect((await readPdfText(toPerson.bytes)).flat).not.toContain('hired out');
    const notHire = await t.request('PUT', `/pcns/${plain.id}/hirer`, { token: admin.token, json: hirerInput('2026-02-04') });
    expect(notHire.status).toBe(422);
    expect(notHire.json.details).toEqual({ [plain.id]: 'the keeper is not recorded as a hire or lease company' });

    // Paragraph 13(2): all three documents, or no transfer to the hirer.
    const missing = await t.request('PUT', `/pcns/${pcn.id}/hirer`, {
      token: admin.token,
      json: { ...hirerInput('2026-02-04'), statementOfLiability: false },
    });
    expect(missing.status).toBe(400);
    expect(missing.json.details).toEqual({
      statementOfLiability: 'A copy of the hirer’s signed statement of liability is needed (paragraph 13(2)(c))',
    });
    const future = await t.request('PUT', `/pcns/${pcn.id}/hirer`, { token: admin.token, json: hirerInput('2026-02-05') });
    expect(future.json.details).toEqual({ documentsGivenOn: 'The day the documents were received cannot be in the future' });

    const recorded = await t.request('PUT', `/pcns/${pcn.id}/hirer`, { token: admin.token, json: hirerInput('2026-02-04') });
    expect(recorded.status, recorded.text).toBe(200);
    // Documents given Wednesday 4 February: 21 days from Thursday 5 to Wednesday 25 February; the
    // last letter goes Monday 23 (presumed given Wednesday 25).
    expect((recorded.json.data as Pcn).hirer).toMatchObject({
      lastName: 'Hirer',
      postcode: 'BS1 4DJ',
      documentsGivenOn: '2026-02-04',
      window: { firstPostingDate: '2026-02-05', lastPostingDate: '2026-02-23' },
      notice: { postedOn: null },
    });
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.filter((entry) => entry.action === 'hirer_recorded')).toHaveLength(1);
    expect((await t.request('PUT', `/pcns/${late.id}/hirer`, { token: admin.token, json: hirerInput('2026-02-04') })).status).toBe(200);

    // The same day the documents came is too early: the window begins the day after.
    const early = await letter(t, admin.token, pcn.id, 'NOTICE_TO_HIRER');
    expect(early.status).toBe(422);
    expect(early.json.code).toBe('KEEPER_NOTICE_REFUSED');
    expect(early.json.details).toEqual({ [pcn.id]: 'too early: post from 5 Feb 2026, the day after the documents were received' });

    // Thursday 5 February: inside the window.
    await clockAt('2026-02-05');
    const made = await letter(t, admin.token, pcn.id, 'NOTICE_TO_HIRER');
    expect(made.status, made.json ? JSON.stringify(made.json) : '').toBe(200);
    const { flat } = await readPdfText(made.bytes);
    // Addressed to the hirer at the address of the statement of liability (13(3)(b)).
    expect(flat).toContain('Mr Harry Hirer 3 Rental Row Bristol BS1 4DJ');
    expect(flat).toContain('Notice to Hirer');
    expect(flat).toContain('Protection of Freedoms Act 2012, Schedule 4, paragraph 14');
    // 14: the hirer is liable by virtue of paragraph 14.
    expect(flat).toContain(
      'By virtue of paragraph 14 of Schedule 4 to the Protection of Freedoms Act 2012, you, the hirer, are liable to pay the unpaid parking charges of £100 specified in the notice to keeper.',
    );
    // 14: the warning, with the amount the notice to keeper specified.
    expect(flat).toContain(
      'If, after the period of 21 days beginning with the day after that on which this notice to hirer is given, the amount of the unpaid parking charges specified in the notice to keeper (£100) has not been paid in full, the creditor will (if all the applicable conditions under Schedule 4 to the Protection of Freedoms Act 2012 are met) have the right to recover from you, the hirer, so much of that amount as remains unpaid.',
    );
    // The hirer's period is 21 days, not the 28 of the keeper's warning (9(2)(f)).
    expect(flat).not.toContain('after the period of 28 days');
    // 14: given with copies of the notice to keeper and of the documents of 13(2)(a) to (c).
    expect(flat).toContain('A copy of the notice to keeper sent to Swift Vehicle Leasing Ltd on 4 Feb 2026.');
    expect(flat).toContain(
      'A copy of the statement signed by or on behalf of the vehicle-hire firm that the vehicle was hired to you under a hire agreement.',
    );
    expect(flat).toContain('A copy of the hire agreement.');
    expect(flat).toContain('A copy of the statement of liability you signed under that hire agreement.');
    expect(flat).toContain('the vehicle was hired to you under a hire agreement (hire agreement HA-55012)');
    // Posted Thursday 5, presumed given Monday 9 February (the second working day after).
    expect(flat).toContain('Sent by post on 5 Feb 2026, this notice is presumed to be given on 9 Feb 2026');
    // And what every letter says: private land, the land and period, how to appeal, the service.
    expect(flat).toContain('This parking charge was incurred on private land.');
    expect(flat).toContain('Land: Station Road');
    expect(flat).toMatch(/If your appeal is rejected, you may appeal to .+, the independent appeals service\./);

    // Stored as sent, and its posting logged once.
    const documents = await t.request('GET', `/pcns/${pcn.id}/documents`, { token: admin.token });
    expect((documents.json.data as SentDocumentListResponse).items.map((item) => item.kind)).toContain('NOTICE_TO_HIRER');
    const posted = await t.request('POST', `/pcns/${pcn.id}/letters/posted`, {
      token: admin.token,
      json: { kind: 'NOTICE_TO_HIRER', postedOn: '2026-02-05', proofReference: 'CP-881' },
    });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.json.data as PcnLetterPosting).toEqual({
      pcnId: pcn.id,
      kind: 'NOTICE_TO_HIRER',
      outcome: 'POSTED',
      postedOn: '2026-02-05',
      deemedGivenOn: '2026-02-09',
    });
    const again = await t.request('POST', `/pcns/${pcn.id}/letters/posted`, {
      token: admin.token,
      json: { kind: 'NOTICE_TO_HIRER', postedOn: '2026-02-05' },
    });
    expect((again.json.data as PcnLetterPosting).outcome).toBe('ALREADY_POSTED');
    const detail = await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token });
    expect((detail.json.data as Pcn).hirer?.notice).toEqual({ postedOn: '2026-02-05', givenOn: '2026-02-09', proofReference: 'CP-881' });

    // Tuesday 24 February: the day after the last posting day is refused, naming it.
    await clockAt('2026-02-24');
    const tooLate = await letter(t, admin.token, late.id, 'NOTICE_TO_HIRER');
    expect(tooLate.status).toBe(422);
    expect(tooLate.json.details).toEqual({
      [late.id]:
        'too late: the last day to post was 23 Feb 2026 (21 days from the day after the documents were received on 4 Feb 2026, paragraph 14)',
    });
  });

  it('documents that come more than 28 days after the notice to keeper was given do not pass liability to the hirer', async () => {
    await clockAt('2026-02-04');
    const pcn = await ready();
    await hireFirmGivenNotice(t, admin.token, pcn.id);
    // Given Friday 6 February: the documents count to Friday 6 March.
    await clockAt('2026-03-09');
    const res = await t.request('PUT', `/pcns/${pcn.id}/hirer`, { token: admin.token, json: hirerInput('2026-03-09') });
    expect(res.status).toBe(400);
    expect(res.json.details.documentsGivenOn).toBe(
      'Documents received after 6 Mar 2026 (28 days from the day after the notice to keeper was given) do not pass liability to the hirer: the hire firm stays liable as keeper',
    );
  });

  it('a named driver stops the keeper’s pursuit and gets a notice to the named driver, which /charge shows', async () => {
    await clockAt('2026-02-04');
    const pcn = await ready();
    // Only a keeper's reply or an appeal names a driver, and the address must be one a letter reaches.
    const noPostcode = await t.request('PUT', `/pcns/${pcn.id}/driver`, {
      token: admin.token,
      json: { ...NAMED_DRIVER, postcode: 'YORK' },
    });
    expect(noPostcode.json.details).toEqual({ postcode: 'Enter a UK postcode' });
    const noAppeal = await t.request('PUT', `/pcns/${pcn.id}/driver`, { token: admin.token, json: { ...NAMED_DRIVER, source: 'APPEAL' } });
    expect(noAppeal.json.details).toEqual({ source: 'This notice has no appeal to have named the driver' });
    await nameDriver(t, admin.token, pcn.id);

    // The keeper is no longer pursued: no notice to keeper, inside its window or not.
    const toKeeper = await keeperLetters(t, admin.token, [pcn.id]);
    expect(toKeeper.status).toBe(422);
    expect(toKeeper.json.details).toEqual({ [pcn.id]: 'The driver is named: send the notice to the named driver instead' });

    // /charge says so before the letter goes...
    const charge = async () =>
      (await t.request('GET', '/public/charges/current', { token: chargeToken(t, pcn.id) })).json.data as PublicCharge;
    expect((await charge()).namedDriverNotice).toEqual({ postedOn: null, givenOn: null });

    const made = await letter(t, admin.token, pcn.id, 'NOTICE_TO_NAMED_DRIVER');
    expect(made.status, made.json ? JSON.stringify(made.json) : '').toBe(200);
    const { flat } = await readPdfText(made.bytes);
    expect(flat).toContain('Ms Dana Driver 9 Mill Lane York YO1 7HH');
    expect(flat).toContain('Notice to the Driver');
    expect(flat).toContain('The registered keeper of the vehicle below has told us that you were driving it during the period of parking');
    expect(flat).toContain('We are no longer asking the keeper to pay it.');
    expect(flat).toContain('As at 23:59 on 3 Feb 2026, £100 remains unpaid.');
    expect(flat).toContain('This parking charge was incurred on private land.');
    expect(flat).toMatch(/If your appeal is rejected, you may appeal to .+, the independent appeals service\./);
    // The driver's liability is in contract: the letter claims nothing of Schedule 4's keeper liability.
    expect(flat).not.toContain('right to recover from you, the keeper');

    const posted = await t.request('POST', `/pcns/${pcn.id}/letters/posted`, {
      token: admin.token,
      json: { kind: 'NOTICE_TO_NAMED_DRIVER', postedOn: '2026-02-04' },
    });
    expect(posted.status, posted.text).toBe(200);
    expect((posted.json.data as PcnLetterPosting).deemedGivenOn).toBe('2026-02-06');
    // ...and after: posted, presumed given, and the notice is issued.
    expect((await charge()).namedDriverNotice).toEqual({ postedOn: '2026-02-04', givenOn: '2026-02-06' });
    const detail = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect(detail.status).toBe('ISSUED');
    expect(detail.namedDriver).toMatchObject({ lastName: 'Driver', source: 'KEEPER_REPLY', notice: { postedOn: '2026-02-04' } });
    // The motorist's page never names the driver.
    expect(JSON.stringify(await charge())).not.toContain('Mill Lane');
    // The audit trail has who named the driver and who posted the letter.
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.filter((entry) => ['driver_named', 'letter_posted'].includes(entry.action)).map((entry) => entry.action)).toEqual([
      'driver_named',
      'letter_posted',
    ]);
  });

  it('a posted notice to the named driver stays posted when a title is corrected, not when the address changes', async () => {
    await clockAt('2026-02-04');
    const pcn = await ready();
    await nameDriver(t, admin.token, pcn.id);
    const made = await letter(t, admin.token, pcn.id, 'NOTICE_TO_NAMED_DRIVER');
    expect(made.status, made.json ? JSON.stringify(made.json) : '').toBe(200);
    // Both marks read the letter unposted before either records it: one posts, the other reports it.
    const mark = () =>
      t.request('POST', `/pcns/${pcn.id}/letters/posted`, {
        token: admin.token,
        json: { kind: 'NOTICE_TO_NAMED_DRIVER', postedOn: '2026-02-04' },
      });
    const marks = await Promise.all([mark(), mark()]);
    expect(marks.map((res) => res.status)).toEqual([200, 200]);
    expect(marks.map((res) => (res.json.data as PcnLetterPosting).outcome).sort()).toEqual(['ALREADY_POSTED', 'POSTED']);
    expect(marks.map((res) => (res.json.data as PcnLetterPosting).deemedGivenOn)).toEqual(['2026-02-06', '2026-02-06']);
    const audit = (await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.filter((entry) => entry.action === 'letter_posted')).toHaveLength(1);

    const charge = async () =>
      (await t.request('GET', '/public/charges/current', { token: chargeToken(t, pcn.id) })).json.data as PublicCharge;
    const namedDriver = async () => ((await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn).namedDriver;
    const save = async (driver: typeof NAMED_DRIVER) => {
      const res = await t.request('PUT', `/pcns/${pcn.id}/driver`, { token: admin.token, json: driver });
      expect(res.status, res.text).toBe(200);
    };

    // The same person at the same address: the letter that went still stands.
    await save({ ...NAMED_DRIVER, title: 'Mrs' });
    expect(await namedDriver()).toMatchObject({ title: 'Mrs', notice: { postedOn: '2026-02-04', givenOn: '2026-02-06' } });
    expect((await charge()).namedDriverNotice).toEqual({ postedOn: '2026-02-04', givenOn: '2026-02-06' });
    const again = await mark();
    expect((again.json.data as PcnLetterPosting).outcome).toBe('ALREADY_POSTED');

    // Another address: the posted letter went elsewhere, so a new one is being prepared.
    await save({ ...NAMED_DRIVER, title: 'Mrs', addressLines: ['12 New Street', 'York'] });
    expect((await namedDriver())?.notice).toEqual({ postedOn: null, givenOn: null, proofReference: null });
    expect((await charge()).namedDriverNotice).toEqual({ postedOn: null, givenOn: null });
  });

  describe('land Schedule 4 does not reach', () => {
    async function carParkWith(changes: { relevantLand?: boolean; jurisdiction?: string }) {
      const id = (await t.createCarPark({ assignTo: [officer.id] })).id;
      await termsSinceLongAgo(t, id);
      // Through the API, as an admin sets it: the terms' history and the posting days follow.
      const saved = await t.request('PUT', `/car-parks/${id}`, { token: admin.token, json: changes });
      expect(saved.status, saved.text).toBe(200);
      expect(saved.json.data).toMatchObject(changes);
      return id;
    }

    it.each([
      [
        'byelaw land (relevant land false)',
        { relevantLand: false },
        'Keeper liability is not available: the land is not relevant land under Schedule 4 (byelaws or other statutory control)',
        'Parking on this land is subject to byelaws or other statutory control, so it is not "relevant land" under Schedule 4 to the Protection of Freedoms Act 2012, which therefore does not apply.',
      ],
      [
        'Scotland',
        { jurisdiction: 'SCOTLAND' },
        'Keeper liability is not available: the land is not in England and Wales',
        'The land is not in England or Wales, so Schedule 4 to the Protection of Freedoms Act 2012 (which can make a keeper liable) does not apply to it.',
      ],
    ])('%s: no notice to keeper, but the request to name the driver', async (_name, changes, refusal, why) => {
      await clockAt('2026-02-04');
      const landId = await carParkWith(changes);
      const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId: landId });
      expect(pcn.keeperNotice.route).toBe('NOT_AVAILABLE');

      const toKeeper = await keeperLetters(t, admin.token, [pcn.id]);
      expect(toKeeper.status).toBe(422);
      expect(toKeeper.json.details).toEqual({ [pcn.id]: `${refusal}. Send a request to name the driver instead` });

      const made = await letter(t, admin.token, pcn.id, 'REQUEST_TO_NAME_DRIVER');
      expect(made.status, made.json ? JSON.stringify(made.json) : '').toBe(200);
      const { flat } = await readPdfText(made.bytes);
      expect(flat).toContain('Ms Kira Keeper 12 Acacia Avenue Headingley Leeds LS6 3AA');
      expect(flat).toContain('Request to Name the Driver');
      expect(flat).toContain('This is not a notice to keeper');
      expect(flat).toContain(why);
      expect(flat).toContain('We do not claim that you are liable for this charge as the keeper. The driver is liable for it.');
      expect(flat).toContain('If you were not the driver, please tell us the name of the driver and a current address for the driver');
      // None of paragraph 8 or 9's claims: no warning of keeper liability, no "notice to keeper" title.
      expect(flat).not.toContain('right to recover from you');
      expect(flat).not.toContain('Notice to Keeper');
      expect(flat).not.toContain('paragraph 8');
      expect(flat).toContain('This parking charge was incurred on private land.');

      // The same storage and posting log as a notice to keeper: kept, then posted and issued.
      const documents = await t.request('GET', `/pcns/${pcn.id}/documents`, { token: admin.token });
      expect((documents.json.data as SentDocumentListResponse).items.map((item) => item.kind)).toContain('REQUEST_TO_NAME_DRIVER');
      const posted = await t.request('POST', `/pcns/${pcn.id}/letters/posted`, {
        token: admin.token,
        json: { kind: 'REQUEST_TO_NAME_DRIVER', postedOn: '2026-02-04', proofReference: 'CP-9' },
      });
      expect(posted.status, posted.text).toBe(200);
      const detail = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
      expect(detail.status).toBe('ISSUED');
      expect(detail.keeperNotice).toMatchObject({ route: 'NOT_AVAILABLE', postedOn: '2026-02-04', deemedGivenOn: '2026-02-06' });
      expect(detail.statusHistory?.at(-1)?.note ?? detail.statusHistory?.[0]?.note).toMatch(
        /Request to name the driver posted on 4 Feb 2026/,
      );

      // A lease company answering the request names a hirer, but there is no keeper liability to
      // pass on: no hirer is recorded and no notice to hirer goes.
      const firm = await t.request('PUT', `/pcns/${pcn.id}/keeper`, { token: admin.token, json: HIRE_COMPANY_KEEPER });
      expect(firm.status, firm.text).toBe(200);
      const hirer = await t.request('PUT', `/pcns/${pcn.id}/hirer`, { token: admin.token, json: hirerInput('2026-02-04') });
      expect(hirer.status).toBe(422);
      expect(hirer.json.details).toEqual({ [pcn.id]: refusal.replace(/^./, (first) => first.toLowerCase()) });
      expect((await letter(t, admin.token, pcn.id, 'NOTICE_TO_HIRER')).status).toBe(422);
    });

    it('refuses the request where keeper liability is available, and a posting day the letter does not carry', async () => {
      await clockAt('2026-02-04');
      const pcn = await ready();
      const refused = await letter(t, admin.token, pcn.id, 'REQUEST_TO_NAME_DRIVER');
      expect(refused.status).toBe(422);
      expect(refused.json.details).toEqual({ [pcn.id]: 'keeper liability is available on this land: send a notice to keeper' });

      const landId = await carParkWith({ relevantLand: false });
      const byelaw = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId: landId });
      expect((await letter(t, admin.token, byelaw.id, 'REQUEST_TO_NAME_DRIVER', '2026-02-05')).status).toBe(200);
      const wrongDay = await t.request('POST', `/pcns/${byelaw.id}/letters/posted`, {
        token: admin.token,
        json: { kind: 'REQUEST_TO_NAME_DRIVER', postedOn: '2026-02-04' },
      });
      expect(wrongDay.status).toBe(409);
      expect(wrongDay.json.code).toBe('LETTER_DATE_MISMATCH');
    });

    it('keeps relevant land with the car park, relevant unless said otherwise', async () => {
      await clockAt('2026-02-04');
      await carParkWith({ relevantLand: false });
      // Created without saying: relevant land.
      const created = await t.request('POST', '/car-parks', {
        token: admin.token,
        json: { name: 'Plain Yard', siteCode: `PY${Date.now() % 100000}` },
      });
      expect(created.status, created.text).toBe(201);
      expect(created.json.data.relevantLand).toBe(true);
    });
  });

  it('a keeper reply may say the keeper is a hire firm; an unknown kind of keeper is listed, not applied', async () => {
    await clockAt('2026-02-04');
    const pcn = await ready();
    const other = await ready();
    const csv = [
      'reference,registration,company_name,address_line_1,postcode,make,model,colour,keeper_type',
      `PCN-${pcn.pcnNumber},${pcn.vehicleRegistration},Swift Vehicle Leasing Ltd,Fleet House,RG1 1AA,Ford,Focus,Blue,hire_company`,
      `PCN-${other.pcnNumber},${other.vehicleRegistration},Odd Co,1 Road,RG1 1AA,Ford,Focus,Blue,FLEET`,
    ].join('\n');
    const res = await t.request('POST', '/keeper-replies', { token: admin.token, json: { csv } });
    expect(res.status, res.text).toBe(200);
    expect(res.json.data.results.map((row: { outcome: string }) => row.outcome)).toEqual(['APPLIED', 'INVALID']);
    const detail = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect(detail.keeper).toMatchObject({ keeperType: 'HIRE_COMPANY', companyName: 'Swift Vehicle Leasing Ltd', source: 'KEEPER_REPLY' });
  });

  it('removes the hirer and the named driver with the keeper once a closed notice is past retention', async () => {
    await clockAt('2026-02-04');
    const pcn = await ready();
    await hireFirmGivenNotice(t, admin.token, pcn.id);
    expect((await t.request('PUT', `/pcns/${pcn.id}/hirer`, { token: admin.token, json: hirerInput('2026-02-04') })).status).toBe(200);
    await nameDriver(t, admin.token, pcn.id);
    expect(
      (
        await t.request('PATCH', `/pcns/${pcn.id}/status`, {
          token: admin.token,
          json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
        })
      ).status,
    ).toBe(200);
    await purgeExpiredEvidence({
      db: t.db,
      uploadsDir: t.config.uploadsDir,
      retentionDays: 0,
      now: () => new Date(t.deps.now().getTime() + 1000),
      logger: silentLogger,
    });
    const detail = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect({ keeper: detail.keeper, hirer: detail.hirer, namedDriver: detail.namedDriver }).toEqual({
      keeper: null,
      hirer: null,
      namedDriver: null,
    });
  });

  it('only admins record hirers and drivers', async () => {
    await clockAt('2026-02-04');
    const pcn = await ready();
    const asOfficer = await t.request('PUT', `/pcns/${pcn.id}/driver`, { token: officer.token, json: NAMED_DRIVER });
    expect(asOfficer.status).toBe(403);
  });
});
