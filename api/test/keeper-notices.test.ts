import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  describeNotYetPostable,
  describePostingWindow,
  draftReference,
  KEEPER_REPLY_COLUMNS,
  keeperReplyTemplateCsv,
  keeperReplyTemplateLines,
  type KeeperNoticesPostedResponse,
  type PcnListResponse,
  type KeeperReplyImport,
  type Pcn,
  type PcnAuditResponse,
  VEHICLE_MISMATCH_REASON,
} from '@parkpatrol/shared';
import { silentLogger } from '../src/services/logger.ts';
import { purgeExpiredEvidence } from '../src/services/purge-expired-evidence.ts';
import { ADDRESS_WINDOW_MM } from '../src/services/keeper-letters/render-keeper-letters.ts';
import { readPdfText, readPdfTextPositions } from './support/pdf.ts';
import { LETTER_KEEPER, letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The keeper's side of Schedule 4 (decisions 0016 to 0018): keeper details by hand and from
 * keeper replies, letters only inside their window, read back from the PDF, and posting.
 * The clock stands at noon on Wednesday 4 February 2026.
 */
const NOW = Date.parse('2026-02-04T12:00:00.000Z');

/** poppler's pdftoppm draws a page as a camera would see it; without it the QR check is skipped. */
const HAS_PDFTOPPM = (() => {
  try {
    execFileSync('pdftoppm', ['-v'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/** The QR code on page `pageNumber`, read from the page drawn at 150 dpi. */
function readQrCode(pdf: Uint8Array, pageNumber: number): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'parkpatrol-qr-'));
  try {
    writeFileSync(join(dir, 'letters.pdf'), pdf);
    execFileSync('pdftoppm', [
      '-r',
      '150',
      '-png',
      '-f',
      String(pageNumber),
      '-l',
      String(pageNumber),
      '-singlefile',
      join(dir, 'letters.pdf'),
      join(dir, 'page'),
    ]);
    const image = PNG.sync.read(readFileSync(join(dir, 'page.png')));
    return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function letters(t: TestApp, token: string, pcnIds: string[]) {
  const res = await t.app.request('/api/keeper-notices/letters', {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pcnIds }),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    json: res.headers.get('content-type')?.includes('json') ? JSON.parse(new TextDecoder().decode(bytes)) : null,
  };
}

describe('keeper details', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN', { firstName: 'Kay', lastName: 'Admin' });
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  it('keeps the keeper for admins only, audits which fields changed but not what they say', async () => {
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId });
    expect(pcn.keeper).toMatchObject({
      title: 'Ms',
      lastName: 'Keeper',
      addressLines: ['12 Acacia Avenue', 'Headingley', 'Leeds'],
      postcode: 'LS6 3AA',
      make: 'Ford',
      colour: 'Blue',
      source: 'MANUAL',
      vehicleConfirmedBy: 'Kay Admin',
    });
    const asOfficer = await t.request('GET', `/pcns/${pcn.id}`, { token: officer.token });
    expect(asOfficer.json.data).not.toHaveProperty('keeper');
    const audit = await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token });
    const entry = (audit.json.data as PcnAuditResponse).entries.find((e) => e.action === 'keeper_changed')!;
    expect(Object.keys(entry.changes)).toEqual(
      expect.arrayContaining(['keeper.lastName', 'keeper.addressLines', 'vehicleConfirmed', 'keeperSource']),
    );
    expect(JSON.stringify(audit.json)).not.toContain('Acacia');
  });

  it('refuses a keeper with no name or company, no address or no UK postcode', async () => {
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId });
    const put = (json: object) => t.request('PUT', `/pcns/${pcn.id}/keeper`, { token: admin.token, json: { ...LETTER_KEEPER, ...json } });
    expect((await put({ lastName: '', companyName: '' })).json.details).toEqual({
      lastName: 'Give the keeper’s last name or a company name',
    });
    expect((await put({ addressLines: ['', ''] })).json.details).toEqual({ addressLines: 'Give the first line of the address' });
    expect((await put({ postcode: 'LEEDS' })).json.details).toEqual({ postcode: 'Enter a UK postcode' });
    // A company keeper needs no person's name.
    const company = await put({ title: '', firstNames: '', lastName: '', companyName: 'Lease Co Ltd' });
    expect(company.status, company.text).toBe(200);
  });

  it('imports keeper replies, applying only rows that match their notice and listing the rest', async () => {
    const first = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, registration: 'RP11AAA' });
    const second = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, registration: 'RP22BBB' });
    const ref = (pcn: Pcn) => `PCN-${pcn.pcnNumber}`;
    const csv = [
      'Reference,Registration,Event Date,Title,First Names,Last Name,Company Name,Address Line 1,Address Line 2,Address Line 3,Address Line 4,Postcode,Make,Model,Colour,No Keeper Reason',
      // 1: matches (event date in the DVLA's order); the colour differs from the admin's entry.
      `${ref(first)},RP11 AAA,31/12/2025,Mr,Ravi,Reply,,1 New Road,,Leeds,,LS1 1AA,Ford,Focus,Red,`,
      // 2: the same again: nothing changes.
      `${ref(first)},RP11AAA,,Mr,Ravi,Reply,,1 New Road,,Leeds,,LS1 1AA,Ford,Focus,Red,`,
      // 3: another vehicle's registration against this reference.
      `${ref(second)},ZZ99ZZZ,,Mr,Wrong,Car,,2 Road,,,,LS1 1AA,VW,Golf,Black,`,
      // 4: no such notice.
      'PCN-99999999,RP22BBB,,Mr,No,Body,,3 Road,,,,LS1 1AA,VW,Golf,Black,',
      // 5: the DVLA holds no keeper.
      `${ref(second)},RP22BBB,,,,,,,,,,,,,,No registered keeper`,
      // 6: an address we cannot post to.
      `${ref(second)},RP22BBB,,Mrs,Bad,Postcode,,4 Road,,,,NOWHERE,VW,Golf,Black,`,
      // 7: the wrong day.
      `${ref(second)},RP22BBB,2025-11-01,Mrs,Wrong,Day,,5 Road,,,,LS1 1AA,VW,Golf,Black,`,
    ].join('\n');
    const res = await t.request('POST', '/keeper-replies', { token: admin.token, json: { fileName: 'replies.csv', csv } });
    expect(res.status, res.text).toBe(200);
    const imported = res.json.data as KeeperReplyImport;
    expect(imported.results.map((r) => r.outcome)).toEqual([
      'APPLIED',
      'UNCHANGED',
      'MISMATCH',
      'NOT_FOUND',
      'NO_KEEPER',
      'INVALID',
      'MISMATCH',
    ]);
    expect(imported.counts).toEqual({ APPLIED: 1, UNCHANGED: 1, NO_KEEPER: 1, MISMATCH: 2, NOT_FOUND: 1, INVALID: 1 });
    expect(imported.results[2]!.message).toBe("The registration ZZ99ZZZ is not the notice's (RP22BBB)");
    expect(imported.results[5]!.message).toBe('Enter a UK postcode');
    expect(imported.results[6]!.message).toMatch(/^The event date 2025-11-01 is not the day of the notice/);

    // Applied: the reply's keeper, and the vehicle must be confirmed again (its colour changed).
    const firstNow = (await t.request('GET', `/pcns/${first.id}`, { token: admin.token })).json.data as Pcn;
    expect(firstNow.keeper).toMatchObject({ lastName: 'Reply', colour: 'Red', source: 'KEEPER_REPLY', vehicleConfirmedAt: null });
    // Never applied silently: the second notice keeps the keeper the admin entered.
    const secondNow = (await t.request('GET', `/pcns/${second.id}`, { token: admin.token })).json.data as Pcn;
    expect(secondNow.keeper).toMatchObject({ lastName: 'Keeper', source: 'MANUAL' });

    const noHeader = await t.request('POST', '/keeper-replies', { token: admin.token, json: { csv: 'a,b\n1,2' } });
    expect(noHeader.status).toBe(400);
    expect(noHeader.json.message).toMatch(/^The file's first line must name its columns: reference, registration/);
  });

  it('reads its own template: the header and the example row, given a notice’s reference, registration and day', async () => {
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, registration: 'TP33CCC' });
    // Another keeper and car on file, so the reply is news: the vehicle then waits to be confirmed.
    const other = { ...LETTER_KEEPER, lastName: 'Other', make: 'Vauxhall', model: 'Corsa', colour: 'Silver' };
    expect((await t.request('PUT', `/pcns/${pcn.id}/keeper`, { token: admin.token, json: other })).status).toBe(200);
    const [header, example] = keeperReplyTemplateLines();
    expect(keeperReplyTemplateCsv()).toBe(`${header}\r\n${example}\r\n`);
    const cells = example.split(',');
    expect(cells).toHaveLength(KEEPER_REPLY_COLUMNS.length);
    const at = (column: (typeof KEEPER_REPLY_COLUMNS)[number]) => KEEPER_REPLY_COLUMNS.indexOf(column);
    // The example's own day, in the DVLA's order, is the day this notice was served (35 days before now).
    const served = new Date(NOW - 35 * 86_400_000);
    cells[at('reference')] = `PCN-${pcn.pcnNumber}`;
    cells[at('registration')] = 'TP33CCC';
    cells[at('event_date')] = cells[at('event_date')]!.replace(
      /^\d{2}\/\d{2}\/\d{4}$/,
      `${String(served.getUTCDate()).padStart(2, '0')}/${String(served.getUTCMonth() + 1).padStart(2, '0')}/${served.getUTCFullYear()}`,
    );
    const csv = `${header}\r\n${cells.join(',')}\r\n`;
    const res = await t.request('POST', '/keeper-replies', { token: admin.token, json: { fileName: 'template.csv', csv } });
    expect(res.status, res.text).toBe(200);
    const imported = res.json.data as KeeperReplyImport;
    expect(imported.results).toEqual([expect.objectContaining({ outcome: 'APPLIED', pcnId: pcn.id })]);
    const now = (await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data as Pcn;
    expect(now.keeper).toMatchObject({ lastName: 'Keeper', make: 'Ford', model: 'Focus', colour: 'Blue', source: 'KEEPER_REPLY' });
    expect(now.keeperState).toBe('UNCONFIRMED');
  });

  it('records “Does not match”: audited, the keeper marked, standing until the vehicle is confirmed or changes', async () => {
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId });
    const put = (json: object) => t.request('PUT', `/pcns/${pcn.id}/keeper`, { token: admin.token, json: { ...LETTER_KEEPER, ...json } });
    const auditOf = async () =>
      ((await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse).entries.filter(
        (entry) => entry.action === 'keeper_changed',
      );
    expect((await put({ vehicleConfirmed: false })).json.data.keeperState).toBe('UNCONFIRMED');

    const refused = await put({ vehicleConfirmed: false, vehicleMismatch: true });
    expect(refused.status, refused.text).toBe(200);
    expect(refused.json.data.keeper).toMatchObject({
      vehicleConfirmedAt: null,
      vehicleMismatchAt: new Date(NOW).toISOString(),
      vehicleMismatchBy: 'Kay Admin',
    });
    expect(refused.json.data.keeperState).toBe('MISMATCH');
    expect((await auditOf()).at(-1)!.changes).toEqual({
      vehicleMismatch: { from: false, to: true },
      keeperSource: { from: 'MANUAL', to: 'MANUAL' },
    });
    // The queue's list says so too.
    const list = await t.request('GET', `/pcns?scope=all&status=APPROVED&search=${pcn.vehicleRegistration}`, { token: admin.token });
    expect(list.status, list.text).toBe(200);
    expect((list.json.data as PcnListResponse).pcns.find((row) => row.id === pcn.id)?.keeperState).toBe('MISMATCH');
    // Pressed again, nothing new happens; an address corrected without an answer keeps the refusal.
    const entries = (await auditOf()).length;
    expect((await put({ vehicleConfirmed: false, vehicleMismatch: true })).json.data.keeper.vehicleMismatchAt).toBe(
      new Date(NOW).toISOString(),
    );
    expect(await auditOf()).toHaveLength(entries);
    expect((await put({ vehicleConfirmed: false, addressLines: ['14 Acacia Avenue', 'Leeds'] })).json.data.keeperState).toBe('MISMATCH');

    const both = await put({ vehicleConfirmed: true, vehicleMismatch: true });
    expect(both.status).toBe(400);
    expect(both.json.details).toEqual({ vehicleMismatch: 'A vehicle cannot both match and not match the photos' });

    // 'Matches' after all: the refusal goes, and the trail says both.
    const matched = await put({ vehicleConfirmed: true });
    expect(matched.json.data.keeper).toMatchObject({ vehicleMismatchAt: null, vehicleMismatchBy: null, vehicleConfirmedBy: 'Kay Admin' });
    expect(matched.json.data.keeperState).toBe('CONFIRMED');
    expect((await auditOf()).at(-1)!.changes).toMatchObject({
      vehicleConfirmed: { from: false, to: true },
      vehicleMismatch: { from: true, to: false },
    });

    // A refusal is of the DVLA's vehicle as it was: another vehicle on file asks the question again.
    await put({ vehicleConfirmed: false, vehicleMismatch: true });
    expect((await put({ vehicleConfirmed: false, colour: 'Red' })).json.data.keeperState).toBe('UNCONFIRMED');
  });

  it('removes the keeper with the photos once a closed notice is past retention', async () => {
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId });
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
      now: () => new Date(NOW + 1000),
      logger: silentLogger,
    });
    expect((await t.request('GET', `/pcns/${pcn.id}`, { token: admin.token })).json.data.keeper).toBeNull();
  });
});

describe('notices to keeper', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  let scottishCarParkId: string;
  let paragraph8: Pcn;
  let paragraph9: Pcn;
  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carParkId = (await t.createCarPark({ name: 'Riverside Retail Park', assignTo: [officer.id] })).id;
    scottishCarParkId = (await t.createCarPark({ name: 'Glasgow Yard', assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
    await termsSinceLongAgo(t, scottishCarParkId);
    await t.db.updateTable('car_parks').set({ jurisdiction: 'SCOTLAND' }).where('id', '=', scottishCarParkId).execute();
    const ready = (servedDaysAgo: number, servedBy = 'AFFIXED', park = carParkId) =>
      letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId: park, servedDaysAgo, servedBy });
    // A ticket fixed on Friday 19 December 2025 at noon: posted from 19 January to 11 February.
    paragraph8 = await ready((NOW - Date.parse('2025-12-19T12:00:00.000Z')) / 86_400_000);
    // A drive-off on Monday 2 February: posted from 3 February to 12 February.
    paragraph9 = await ready(2, 'DRIVE_OFF');
  });
  afterAll(() => t.close());

  it('refuses a batch, naming each notice that cannot have a letter and why, and makes none', async () => {
    const tooEarly = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, servedDaysAgo: 15 });
    const tooLate = await letterReadyPcn(t, {
      officerToken: officer.token,
      adminToken: admin.token,
      carParkId,
      servedDaysAgo: 30,
      servedBy: 'DRIVE_OFF',
    });
    const scottish = await letterReadyPcn(t, {
      officerToken: officer.token,
      adminToken: admin.token,
      carParkId: scottishCarParkId,
      servedDaysAgo: 35,
    });
    const unconfirmed = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, servedDaysAgo: 35 });
    await t.request('PUT', `/pcns/${unconfirmed.id}/keeper`, { token: admin.token, json: { ...LETTER_KEEPER, vehicleConfirmed: false } });
    const underReview = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, servedDaysAgo: 35 });
    await t.request('PATCH', `/pcns/${underReview.id}/status`, {
      token: admin.token,
      json: { status: 'CANCELLED', cancellationReason: 'OPERATOR_ERROR' },
    });

    const res = await letters(t, admin.token, [paragraph8.id, tooEarly.id, tooLate.id, scottish.id, unconfirmed.id, underReview.id]);
    expect(res.status).toBe(422);
    expect(res.json.code).toBe('KEEPER_NOTICE_REFUSED');
    expect(res.json.details).toEqual({
      [tooEarly.id]: expect.stringMatching(
        /^Too early: a letter posted on 4 Feb 2026 could be given before the law allows\. Post from \d+ \w+ 2026$/,
      ),
      [tooLate.id]: expect.stringMatching(/^Too late: the last day to post was \d+ Jan 2026$/),
      [scottish.id]: 'Keeper liability is not available: the land is not in England and Wales. Send a request to name the driver instead',
      [unconfirmed.id]: "The DVLA's vehicle has not been confirmed against the photos",
      [underReview.id]: 'Only an approved notice gets a notice to keeper; this one is cancelled',
    });
    expect(res.json.message).toMatch(/^5 notices cannot have a notice to keeper: PCN-\d{8}/);
  });

  it('makes no notice to keeper for a keeper whose vehicle does not match the photos, and says why', async () => {
    const refused = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, servedDaysAgo: 35 });
    const answer = await t.request('PUT', `/pcns/${refused.id}/keeper`, {
      token: admin.token,
      json: { ...LETTER_KEEPER, vehicleConfirmed: false, vehicleMismatch: true },
    });
    expect(answer.status, answer.text).toBe(200);
    const res = await letters(t, admin.token, [refused.id]);
    expect(res.status).toBe(422);
    expect(res.json.details).toEqual({ [refused.id]: VEHICLE_MISMATCH_REASON });
    const documents = (await t.request('GET', `/pcns/${refused.id}/documents`, { token: admin.token })).json.data.items as Array<{
      kind: string;
    }>;
    expect(documents.filter((document) => document.kind === 'NOTICE_TO_KEEPER')).toEqual([]);
  });

  it('a paragraph 9 notice lists its first posting day, and the queue’s rule and the refusal agree on it', async () => {
    // A drive-off today, Wednesday 4 February 2026: its 14 days run from Thursday 5 February to Wednesday 18, so
    // the first letter goes on the 5th and the last on Monday 16 (given on the 18th).
    const today = await letterReadyPcn(t, {
      officerToken: officer.token,
      adminToken: admin.token,
      carParkId,
      servedDaysAgo: 0,
      servedBy: 'DRIVE_OFF',
    });
    const list = await t.request('GET', '/pcns?scope=all&status=APPROVED&sort=deadline&order=asc&limit=100', { token: admin.token });
    expect(list.status, list.text).toBe(200);
    const listed = (list.json.data as PcnListResponse).pcns.find((pcn) => pcn.id === today.id)!;
    expect(listed.keeperNotice).toMatchObject({ route: 'PARAGRAPH_9', firstPostingDate: '2026-02-05', lastPostingDate: '2026-02-16' });
    expect(describePostingWindow(listed.keeperNotice)).toBe('Post between 5 Feb and 16 Feb');
    expect(describeNotYetPostable(listed.keeperNotice, '2026-02-04')).toBe('Not yet: from 5 Feb');
    const post = (postOn: string) =>
      t.app.request('/api/keeper-notices/letters', {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pcnIds: [today.id], postOn }),
      });
    const early = await post('2026-02-04');
    expect(early.status).toBe(422);
    expect(((await early.json()) as { details: Record<string, string> }).details[today.id]).toBe(
      'Too early: a letter posted on 4 Feb 2026 could be given before the law allows. Post from 5 Feb 2026',
    );
    expect(describeNotYetPostable(listed.keeperNotice, '2026-02-05')).toBeNull();
    expect((await post('2026-02-05')).status).toBe(200);
  });

  it('makes one PDF with a letter per notice, each saying what its paragraph requires, the address in the window', async () => {
    const res = await letters(t, admin.token, [paragraph8.id, paragraph9.id]);
    expect(res.status, new TextDecoder().decode(res.bytes).slice(0, 300)).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="notices-to-keeper-2026-02-04.pdf"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { pages } = await readPdfText(res.bytes);
    const flat = (page: string) => page.replace(/\s+/g, ' ');
    const letter8 = pages
      .filter((page) => page.includes(`PCN-${paragraph8.pcnNumber}`))
      .map(flat)
      .join(' ');
    const letter9 = pages
      .filter((page) => page.includes(`PCN-${paragraph9.pcnNumber}`))
      .map(flat)
      .join(' ');

    const common = [
      'NOTICE TO KEEPER',
      'Ms Kira Keeper',
      '12 Acacia Avenue',
      'LS6 3AA',
      'Date sent: 4 Feb 2026',
      'incurred on private land',
      'Vehicle: ',
      '(Blue Ford Focus)',
      'Land: Riverside Retail Park',
      'Period of parking:',
      'The driver is required to pay a parking charge in respect of the period of parking above, and the parking charge has not been paid in full.',
      '"Permit holders only. Parking charge £100"',
      'does not know both the name of the driver and a current address for service for the driver.',
      'We invite you to pay the unpaid parking charge of £100, or, if you were not the driver of the vehicle, to tell us the name of the driver and a current address for service for the driver, and to pass this notice on to the driver.',
      'the period of 28 days beginning with the day after that on which this notice is given, the amount of the unpaid parking charge (£100) has not been paid in full',
      'have the right to recover from you, the keeper, so much of that amount as remains unpaid.',
      'presumed to be given on 6 Feb 2026',
      'you may appeal to POPLA (Parking on Private Land Appeals), the independent appeals service',
      'Online at parkpatrol.example/pay',
      'This notice was sent by post on 4 Feb 2026.',
      '/charge and enter the reference',
    ];
    for (const statement of common) {
      expect(letter8, `paragraph 8: ${statement}`).toContain(statement);
      expect(letter9, `paragraph 9: ${statement}`).toContain(statement);
    }
    // Each paragraph's own words for the 28-day warning (8(2)(f) and 9(2)(f)), the last day to
    // appeal, and the Single Code's statements of the discount and an appeal (8.1.2(d) and (e)).
    expect(letter8).toContain('If, at the end of the period of 28 days beginning with the day after');
    expect(letter9).toContain('If, after the period of 28 days beginning with the day after');
    expect(letter9).not.toContain('at the end of the period of 28 days');
    for (const letter of [letter8, letter9]) {
      expect(letter).toContain('within 28 days of the day this notice is given (by 6 Mar 2026)');
      expect(letter).toContain('you may still pay the amount that applied on the day you appealed');
      expect(letter).toContain('the reduced amount no longer applies');
    }
    // Paragraph 8: the notice to driver, and its particulars repeated.
    expect(letter8).toContain('Protection of Freedoms Act 2012, Schedule 4, paragraph 8');
    expect(letter8).toContain(
      'A notice to driver for this period of parking was given at 12:00 on Friday 19 December 2025 by fixing it to the vehicle.',
    );
    expect(letter8).toContain('As at 12:00 on Friday 19 December 2025, £100 remains unpaid.');
    expect(letter8).toContain('No discount is now offered: the reduced amount of £60 applied if paid by 2 Jan 2026');
    // Paragraph 9: the charge at the end of the parking, unpaid as at the day before sending.
    expect(letter9).toContain('Protection of Freedoms Act 2012, Schedule 4, paragraph 9');
    expect(letter9).toContain('The parking charge due from the driver as at the end of the period of parking was £100.');
    expect(letter9).toContain('As at 23:59 on 3 Feb 2026, £100 remains unpaid.');
    expect(letter9).toContain('reduced to £60 if paid within 14 days of the day this notice is given (by 20 Feb 2026)');
    expect(letter9).not.toContain('notice to driver for this period');
    // A ticket printed before its notice was sent named the charge by its draft reference (the
    // phone's draft id, sent as the Idempotency-Key): the letter names it beside the number.
    const { idempotency_key: key } = await t.db
      .selectFrom('pcns')
      .select('idempotency_key')
      .where('id', '=', paragraph8.id)
      .executeTakeFirstOrThrow();
    const ticket = draftReference(key!);
    expect(ticket).toMatch(/^D-[0-9A-F]{8}$/);
    expect(letter8).toContain(`Ticket reference: ${ticket}`);
    expect(letter8).toContain(
      `The notice to driver may show the ticket reference ${ticket} in place of PCN-${paragraph8.pcnNumber}: both refer to this charge, and either finds it there.`,
    );
    // A drive-off had no notice to driver, so no ticket to name.
    expect(letter9).not.toContain('Ticket reference');
    expect(letter9).not.toMatch(/\bD-[0-9A-F]{8}\b/);

    // The address sits inside a DL envelope's window on the first page of each letter.
    const first = await readPdfTextPositions(res.bytes, 1);
    const window = ADDRESS_WINDOW_MM;
    for (const line of ['Ms Kira Keeper', '12 Acacia Avenue', 'Headingley', 'LS6 3AA']) {
      const at = first.find((item) => item.text === line)!;
      expect(at, line).toBeDefined();
      expect(at.leftMm).toBeGreaterThanOrEqual(window.left);
      expect(at.leftMm).toBeLessThan(window.left + window.width - 30);
      expect(at.topMm).toBeGreaterThan(window.top);
      expect(at.topMm).toBeLessThan(window.top + window.height);
    }
  });

  it.skipIf(!HAS_PDFTOPPM)('puts a QR code of the charge’s page on each letter', async () => {
    const res = await letters(t, admin.token, [paragraph9.id]);
    expect(res.status).toBe(200);
    expect(readQrCode(res.bytes, 1)).toBe(`${t.config.appUrl.replace(/\/+$/, '')}/charge?ref=PCN-${paragraph9.pcnNumber}`);
  });

  it('marks letters posted: each to ISSUED with the day presumed given, once', async () => {
    const future = await t.request('POST', '/keeper-notices/posted', {
      token: admin.token,
      json: { pcnIds: [paragraph8.id], postedOn: '2026-02-05' },
    });
    expect(future.status).toBe(400);
    expect(future.json.details).toEqual({ postedOn: 'The posting day cannot be in the future' });

    const post = () =>
      t.request('POST', '/keeper-notices/posted', {
        token: admin.token,
        json: { pcnIds: [paragraph8.id, paragraph9.id], postedOn: '2026-02-04', proofReference: 'CP-1234-5678' },
      });
    const first = await post();
    expect(first.status, first.text).toBe(200);
    expect((first.json.data as KeeperNoticesPostedResponse).results).toEqual([
      { pcnId: paragraph8.id, pcnNumber: paragraph8.pcnNumber, outcome: 'POSTED', postedOn: '2026-02-04', deemedGivenOn: '2026-02-06' },
      { pcnId: paragraph9.id, pcnNumber: paragraph9.pcnNumber, outcome: 'POSTED', postedOn: '2026-02-04', deemedGivenOn: '2026-02-06' },
    ]);
    const issued = (await t.request('GET', `/pcns/${paragraph8.id}`, { token: admin.token })).json.data as Pcn;
    expect(issued.status).toBe('ISSUED');
    expect(issued.keeperNotice).toMatchObject({ postedOn: '2026-02-04', deemedGivenOn: '2026-02-06' });
    expect(issued.statusHistory!.at(-1)).toMatchObject({
      fromStatus: 'APPROVED',
      toStatus: 'ISSUED',
      note: 'Notice to keeper posted on 4 Feb 2026, presumed given on 6 Feb 2026 (proof of posting CP-1234-5678)',
    });
    const audit = (await t.request('GET', `/pcns/${paragraph8.id}/audit`, { token: admin.token })).json.data as PcnAuditResponse;
    expect(audit.entries.find((entry) => entry.action === 'keeper_notice_posted')!.changes).toEqual({
      keeperNoticePostedOn: { from: null, to: '2026-02-04' },
      keeperNoticeGivenOn: { from: null, to: '2026-02-06' },
      proofReference: { from: null, to: 'CP-1234-5678' },
    });

    // Again: nothing changes.
    const again = await post();
    expect((again.json.data as KeeperNoticesPostedResponse).results.map((r) => r.outcome)).toEqual(['ALREADY_POSTED', 'ALREADY_POSTED']);
    const history = await t.db.selectFrom('pcn_status_history').select('id').where('pcn_id', '=', paragraph8.id).execute();
    expect(history.filter(Boolean)).toHaveLength(issued.statusHistory!.length);
    // And a letter for a notice already issued is refused.
    expect((await letters(t, admin.token, [paragraph8.id])).status).toBe(422);
  });
});
