import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as shared from '@parkpatrol/shared';
import {
  IDEMPOTENCY_KEY_HEADER,
  overpaidNote,
  PAYMENT_DETAILS_MESSAGE,
  PERIOD_MESSAGES,
  VALIDATION_MESSAGES,
  type Appeal,
  type AppealListResponse,
  type KeeperReplyImport,
  type OperatorSettingsResponse,
  type Pcn,
  type PcnAuditResponse,
} from '@parkpatrol/shared';
import { appealForm, chargeToken } from './support/appeals.ts';
import { LETTER_KEEPER, letterReadyPcn, termsSinceLongAgo } from './support/keeper-notices.ts';
import { readPdfTextPositions } from './support/pdf.ts';
import { ADDRESS_WINDOW_MM } from '../src/services/keeper-letters/render-keeper-letters.ts';
import { createPcnViaApi, insertPcnsDirectly, jpegUpload, pcnForm, postPcn, validOperatorTerms, validPcnFields } from './fixtures.ts';
import { inlineScriptHashes } from '../src/http/inline-scripts.ts';
import { SANDBOXED_FILE_POLICY } from '../src/http/sandboxed-file.ts';
import { listen } from './support/loopback.ts';
import { createTestApp, type Session, type TestApp } from './test-app.ts';

/**
 * The fourth outside attack's low findings and leftovers, about what is recorded: one test (or
 * more) per finding fixed; each failed before its fix.
 */
describe('security, round four: records', () => {
  let t: TestApp;
  let officer: Session;
  let admin: Session;
  let carParkId: string;
  // Noon on Wednesday 4 February 2026.
  const NOW = Date.parse('2026-02-04T12:00:00.000Z');

  beforeAll(async () => {
    t = await createTestApp();
    t.clock.frozenAtMs = NOW;
    officer = await t.signedInUser('USER');
    admin = await t.signedInUser('ADMIN');
    carParkId = (await t.createCarPark({ assignTo: [officer.id] })).id;
    await termsSinceLongAgo(t, carParkId);
  });
  afterAll(() => t.close());

  /** A ticket fixed on 1 February 2026: £60 until 15 February, £100 after. */
  const charge = (vehicleRegistration: string) =>
    createPcnViaApi(t, officer.token, carParkId, {
      vehicleRegistration,
      observedAt: '2026-02-01T10:00:00.000Z',
      issuedAt: '2026-02-01T10:00:00.000Z',
      noticeServedAt: '2026-02-01T10:00:00.000Z',
    });
  const openAppeal = async (pcnId: string): Promise<string> => {
    const sent = await t.fileAndConfirmAppeal(chargeToken(t, pcnId), appealForm({ reason: 'MITIGATING' }));
    expect(sent.status, sent.text).toBe(201);
    const listed = await t.request('GET', `/appeals?search=${sent.json.data.reference as string}`, { token: admin.token });
    return (listed.json.data as AppealListResponse).items[0]!.id;
  };

  it('N7: an appeal is accepted at a reduced amount only below the charge and above nothing', async () => {
    const pcn = await charge('RD12RED');
    const appealId = await openAppeal(pcn.id);
    const decide = (reducedChargePence: number) =>
      t.request('POST', `/appeals/${appealId}/decision`, {
        token: admin.token,
        json: { outcome: 'ACCEPTED_REDUCED', reasons: 'Mitigation accepted in part.', reducedChargePence },
      });
    // £100 "reduced" to £1,000, and to exactly the charge: neither is a reduction.
    for (const amount of [100_000, 10_000]) {
      const refused = await decide(amount);
      expect(refused.status, refused.text).toBe(400);
      expect(refused.json.details).toEqual({ reducedChargePence: 'Must be less than the charge of £100' });
    }
    expect((await decide(0)).json.details).toEqual({ reducedChargePence: 'Enter the reduced amount' });
    // The handler's screen knows the charge, so the form can say so before it is sent.
    const appeal = (await t.request('GET', `/appeals/${appealId}`, { token: admin.token })).json.data as Appeal;
    expect(appeal.chargePence).toBe(10_000);
    expect(appeal.decision).toBeNull();

    const reduced = await decide(4_000);
    expect(reduced.status, reduced.text).toBe(200);
    expect((reduced.json.data as Appeal).decision).toMatchObject({ outcome: 'ACCEPTED_REDUCED', reducedChargePence: 4_000 });
  });

  it('N11: a first sighting is within the day of the notice and not after its issue, when filed, edited or observed', async () => {
    const issuedAt = '2026-02-04T11:00:00.000Z';
    const file = (times: { firstSeenAt?: string; observedAt?: string }, vehicleRegistration = 'FS12AAA') =>
      postPcn(t, officer.token, {
        ...validPcnFields(carParkId),
        vehicleRegistration,
        issuedAt,
        noticeServedAt: issuedAt,
        images: [jpegUpload(71)],
        ...times,
      });
    const epoch = await file({ firstSeenAt: '1970-01-01T00:00:00.000Z' });
    expect(epoch.status, epoch.text).toBe(400);
    expect(epoch.json.details).toEqual({ firstSeenAt: PERIOD_MESSAGES.firstSeenTooEarly });
    // A minute over 24 hours before the issue is out; the evening before (a stay across midnight) is in.
    expect((await file({ firstSeenAt: '2026-02-03T10:59:00.000Z' })).json.details).toEqual({
      firstSeenAt: PERIOD_MESSAGES.firstSeenTooEarly,
    });
    expect((await file({ observedAt: '1970-01-01T00:00:00.000Z' })).json.details).toEqual({ observedAt: PERIOD_MESSAGES.observedTooEarly });
    // After the issue (though before the service): the period would start after the notice.
    const afterIssue = await postPcn(t, officer.token, {
      ...validPcnFields(carParkId),
      vehicleRegistration: 'FS12AAB',
      issuedAt,
      noticeServedAt: '2026-02-04T11:30:00.000Z',
      firstSeenAt: '2026-02-04T11:10:00.000Z',
      images: [jpegUpload(72)],
    });
    expect(afterIssue.json.details).toEqual({ firstSeenAt: PERIOD_MESSAGES.firstSeenAfterIssue });
    const evening = await file({ firstSeenAt: '2026-02-03T23:40:00.000Z' }, 'FS12AAC');
    expect(evening.status, evening.text).toBe(201);
    expect((evening.json.data as Pcn).firstSeenAt).toBe('2026-02-03T23:40:00.000Z');

    // An edit is held to the same rule.
    const edited = await t.request('PUT', `/pcns/${(evening.json.data as Pcn).id}`, {
      token: admin.token,
      body: pcnForm({ firstSeenAt: '1970-01-01T00:00:00.000Z' }),
    });
    expect(edited.status, edited.text).toBe(400);
    expect(edited.json.details).toEqual({ firstSeenAt: PERIOD_MESSAGES.firstSeenTooEarly });

    // An observation's first visit from 1970 can lead to no notice: refused when opened.
    const observed = await t.request('PUT', `/observations/${randomUUID()}`, {
      token: officer.token,
      json: { vehicleRegistration: 'FS12AAD', carParkId, observedAt: '1970-01-01T00:00:00.000Z', status: 'OPEN' },
    });
    expect(observed.status, observed.text).toBe(400);
    expect(observed.json.details).toEqual({ observedAt: PERIOD_MESSAGES.observationTooOld });
  });

  it('N11: an offline notice is held to the day before its service, not before its arrival', async () => {
    // Served on the car on Tuesday at 11:00 and sent from the outbox 25 hours later: the server's now.
    const servedAt = new Date(NOW - 25 * 60 * 60 * 1000).toISOString();
    const minutesBefore = (minutes: number) => new Date(Date.parse(servedAt) - minutes * 60_000).toISOString();
    const send = (firstSeenAt: string, vehicleRegistration: string, image: number) =>
      postPcn(t, officer.token, {
        ...validPcnFields(carParkId),
        vehicleRegistration,
        // What the web app sends: no issue time, so the server's own "now" stands for it.
        issuedAt: undefined,
        observedAt: undefined,
        noticeServedAt: servedAt,
        firstSeenAt,
        images: [jpegUpload(image)],
      });
    const late = await send(minutesBefore(10), 'OB12OXA', 73);
    expect(late.status, late.text).toBe(201);
    expect((late.json.data as Pcn).firstSeenAt).toBe(minutesBefore(10));
    // The window still holds, counted from the service.
    const tooEarly = await send(minutesBefore(2 * 24 * 60), 'OB12OXB', 74);
    expect(tooEarly.status, tooEarly.text).toBe(400);
    expect(tooEarly.json.details).toEqual({ firstSeenAt: PERIOD_MESSAGES.firstSeenTooEarly });

    // A first visit recorded offline at a car park set up last week reaches the server 25 hours on.
    t.clock.frozenAtMs = NOW - 7 * 24 * 60 * 60 * 1000;
    const lastWeek = (await t.createCarPark({ assignTo: [officer.id] })).id;
    t.clock.frozenAtMs = NOW;
    const observed = await t.request('PUT', `/observations/${randomUUID()}`, {
      token: officer.token,
      json: { vehicleRegistration: 'OB12OXC', carParkId: lastWeek, observedAt: servedAt, status: 'OPEN' },
    });
    expect(observed.status, observed.text).toBe(200);
  });

  it('N8: a motorist’s file is served under its own sandbox policy, not the app’s', async () => {
    const pcn = await charge('SB12BOX');
    const appealId = await openAppeal(pcn.id);
    const appeal = (await t.request('GET', `/appeals/${appealId}`, { token: admin.token })).json.data as Appeal;
    const file = await t.request('GET', `/appeals/${appealId}/attachments/${appeal.attachments[0]!.id}`, { token: admin.token });
    expect(file.status).toBe(200);
    // One policy, the file's: a page's script-src would let an HTML or SVG file run in our origin.
    expect(file.headers.get('content-security-policy')).toBe(SANDBOXED_FILE_POLICY);
    // Every other answer keeps the app's policy.
    const page = await t.request('GET', `/appeals/${appealId}`, { token: admin.token });
    expect(page.headers.get('content-security-policy')).toContain('frame-ancestors');
  });

  it('N9: a payment is recorded once per attempt, dated within the charge’s life, and one of more than was due is flagged', async () => {
    const pcn = await charge('PY12PAY');
    const pay = (json: object, key: string | null = randomUUID()) =>
      t.request('POST', `/pcns/${pcn.id}/payments`, {
        token: admin.token,
        json,
        headers: key === null ? {} : { [IDEMPOTENCY_KEY_HEADER]: key },
      });
    const card = { amountPence: 2_500, paidOn: '2026-02-03', method: 'CARD', reference: 'TXN-7' };
    expect((await pay(card, null)).status).toBe(400);

    // The same attempt sent twice (a double click, a retry after a lost answer): recorded once.
    const key = randomUUID();
    const first = await pay(card, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await pay(card, key.toUpperCase());
    expect(again.status, again.text).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((again.json.data as Pcn).payments).toMatchObject({ paidPence: 2_500, payments: [{ amountPence: 2_500 }] });
    // The same key with another payment is refused, as the appeals route refuses it.
    const other = await pay({ ...card, amountPence: 3_000 }, key);
    expect(other.status).toBe(422);
    expect(other.json.code).toBe('IDEMPOTENCY_MISMATCH');
    const audit = await t.request('GET', `/pcns/${pcn.id}/audit`, { token: admin.token });
    expect((audit.json.data as PcnAuditResponse).entries.filter((entry) => entry.action === 'payment_recorded')).toHaveLength(1);

    // Within the charge's life: not before the notice was issued (1 February), not after today (4 February, UK).
    for (const [paidOn, message] of [
      ['0000-01-01', 'The day it was paid cannot be before the notice was issued (1 Feb 2026)'],
      ['2026-01-31', 'The day it was paid cannot be before the notice was issued (1 Feb 2026)'],
      ['2099-12-31', 'The day it was paid cannot be in the future'],
      ['2026-02-05', 'The day it was paid cannot be in the future'],
    ] as const) {
      const refused = await pay({ ...card, paidOn });
      expect(refused.status, paidOn).toBe(400);
      expect(refused.json.details).toEqual({ paidOn: message });
    }

    // £60 was due within the discount, £25 paid: £100 more is £65 more than was due. Recorded, and said.
    const over = await pay({ amountPence: 10_000, paidOn: '2026-02-04', method: 'BANK_TRANSFER', reference: '' });
    expect(over.status, over.text).toBe(200);
    const paid = over.json.data as Pcn;
    expect(paid.status).toBe('PAID');
    expect(paid.payments).toMatchObject({ paidPence: 12_500, overpaidPence: 6_500 });
    // Recorded at one frozen moment, the two are in no particular order.
    const overpaid = Object.fromEntries(paid.payments!.payments.map((payment) => [payment.amountPence, payment.overpaidPence]));
    expect(overpaid).toEqual({ 2500: 0, 10000: 6_500 });
    expect(overpaidNote(6_500)).toBe('More than was due, by £65: consider a refund');
  });

  it('N10: only a Super Admin changes the bank details every letter prints, and the change keeps the old value', async () => {
    const superAdmin = await t.signedInUser('SUPER_ADMIN', { firstName: 'Sue', lastName: 'Super' });
    // Each save a second after the last: the newest terms are the ones in force (the clock is frozen).
    const put = (token: string, overrides: Record<string, unknown>) => {
      t.clock.frozenAtMs! += 1_000;
      return t.request('PUT', '/settings/operator', { token, json: validOperatorTerms(overrides) });
    };
    const read = async () => (await t.request('GET', '/settings/operator', { token: admin.token })).json.data as OperatorSettingsResponse;
    const honest = 'By bank transfer to ParkPatrol Parking Ltd, sort code 12-34-56, account 12345678.';
    expect((await put(superAdmin.token, { howToPay: honest })).status).toBe(200);

    // A plain Admin redirecting every payment is refused, naming the field, and nothing is saved.
    const redirected = await put(admin.token, { howToPay: 'By bank transfer to sort code 99-99-99, account 66666666.' });
    expect(redirected.status).toBe(403);
    expect(redirected.json.details).toEqual({ howToPay: PAYMENT_DETAILS_MESSAGE });
    expect((await read()).operator?.howToPay).toBe(honest);
    // The rest of the terms stay an Admin's to keep up to date.
    const phone = await put(admin.token, { howToPay: honest, creditorPhone: '0113 496 0111' });
    expect(phone.status, phone.text).toBe(200);

    // A Super Admin's change is kept with the old value, the new one and who made it.
    const moved = 'By bank transfer to ParkPatrol Parking Ltd, sort code 65-43-21, account 87654321.';
    const changed = await put(superAdmin.token, { howToPay: moved, creditorPhone: '0113 496 0111' });
    expect(changed.status).toBe(200);
    const latest = (changed.json.data as OperatorSettingsResponse).changes[0]!;
    expect(latest).toMatchObject({ actorName: 'Sue Super', changes: { howToPay: { from: honest, to: moved } } });
    t.clock.frozenAtMs = NOW;
  });

  it('trusts one inline script at most: the built page’s boot script, and refuses to serve a build with more', async () => {
    const hashesIn = (csp: string) => csp.match(/'sha256-[^']+'/g) ?? [];
    const built = resolve(import.meta.dirname, '../../web/dist');
    if (existsSync(join(built, 'index.html'))) {
      const served = await createTestApp({ config: { webDistDir: built } });
      try {
        expect(hashesIn((await served.app.request('/login')).headers.get('content-security-policy') ?? '')).toHaveLength(1);
      } finally {
        await served.close();
      }
    }
    const dist = mkdtempSync(join(tmpdir(), 'parkpatrol-dist-'));
    try {
      const boot = 'document.documentElement.setAttribute("data-boot","sign-in")';
      writeFileSync(
        join(dist, 'index.html'),
        `<!doctype html><script>${boot}</script><script type="module" src="/assets/index.js"></script>`,
      );
      const one = await createTestApp({ config: { webDistDir: dist } });
      try {
        const csp = (await one.app.request('/login')).headers.get('content-security-policy') ?? '';
        expect(hashesIn(csp)).toEqual([`'sha256-${createHash('sha256').update(boot).digest('base64')}'`]);
      } finally {
        await one.close();
      }
      // A second inline script (a plugin's, or text that became markup) would be trusted blindly: no such build is served.
      writeFileSync(join(dist, 'index.html'), `<!doctype html><script>${boot}</script><script>fetch('/x')</script>`);
      expect(() => inlineScriptHashes(dist)).toThrow('has 2 inline scripts');
      writeFileSync(join(dist, 'index.html'), `<!doctype html><script>${boot}</script><script type="text/javascript">fetch('/x')</script>`);
      expect(() => inlineScriptHashes(dist)).toThrow('has 2 inline scripts');
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('imports 2,000 keeper replies in batches while /api/health keeps answering over a real socket', { timeout: 180_000 }, async () => {
    const made = await insertPcnsDirectly(t, 2_000, (index) => ({
      createdBy: officer.id,
      carParkId,
      vehicleRegistration: `KR${String(index).padStart(5, '0')}`,
      createdAt: '2026-02-01T10:00:00.000Z',
    }));
    const csv = [
      'Reference,Registration,Event Date,Title,First Names,Last Name,Company Name,Address Line 1,Address Line 2,Address Line 3,Address Line 4,Postcode,Make,Model,Colour,No Keeper Reason',
      ...made.map(
        (pcn, index) =>
          `PCN-${pcn.pcnNumber},KR${String(index).padStart(5, '0')},,Ms,Kim,Keeper${index},,${index} Mill Lane,,Leeds,,LS1 4AB,Ford,Focus,Red,`,
      ),
    ].join('\n');
    const server = await listen(t);
    const base = `${server.baseUrl}/api`;
    try {
      // The server and this test share one event loop: a stalled server stalls the asking too, so
      // what is measured is the longest wait between one answer from /api/health and the next.
      const answeredAt: number[] = [performance.now()];
      let isImporting = true;
      const probing = (async () => {
        while (isImporting) {
          await fetch(`${base}/health`).then((answer) => answer.arrayBuffer());
          answeredAt.push(performance.now());
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      })();
      const started = performance.now();
      const imported = await fetch(`${base}/keeper-replies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json', origin: t.config.appUrl },
        body: JSON.stringify({ fileName: 'replies.csv', csv }),
      });
      const body = (await imported.json()) as { data: KeeperReplyImport };
      const took = performance.now() - started;
      isImporting = false;
      await probing;
      expect(imported.status).toBe(200);
      expect(body.data.counts.APPLIED).toBe(2_000);
      const longestWait = Math.max(...answeredAt.slice(1).map((at, index) => at - answeredAt[index]!));
      expect(longestWait, `health waited ${Math.round(longestWait)} ms while a ${Math.round(took)} ms import ran`).toBeLessThan(1_000);
    } finally {
      await server.close();
    }
    const keeper = await t.db.selectFrom('pcn_keepers').select('last_name').where('pcn_id', '=', made[1_999]!.id).executeTakeFirst();
    expect(keeper?.last_name).toBe('Keeper1999');
  });

  it('wraps a long address line within the envelope’s window', async () => {
    const pcn = await letterReadyPcn(t, { officerToken: officer.token, adminToken: admin.token, carParkId, registration: 'WN12DOW' });
    const long = 'Flat 12, The Old Cornmill Buildings, Riverside Industrial Estate North';
    const keeper = await t.request('PUT', `/pcns/${pcn.id}/keeper`, {
      token: admin.token,
      json: { ...LETTER_KEEPER, addressLines: [long, 'Headingley', 'Leeds'] },
    });
    expect(keeper.status, keeper.text).toBe(200);
    const res = await t.app.request('/api/keeper-notices/letters', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pcnIds: [pcn.id] }),
    });
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    const window = ADDRESS_WINDOW_MM;
    const inWindow = (await readPdfTextPositions(bytes, 1)).filter(
      (run) => run.leftMm >= window.left && run.leftMm < window.left + 10 && run.topMm > window.top && run.topMm < 100,
    );
    // Every word of the line is there, over two lines, and the postcode after them.
    expect(inWindow.map((run) => run.text).join(' ')).toBe(`Ms Kira Keeper ${long} Headingley Leeds LS6 3AA`);
    expect(inWindow).toHaveLength(6);
    // Each line ends inside the window (its width at the address's type), and the last is above its foot.
    const helvetica = await (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);
    for (const run of inWindow) {
      const rightMm = run.leftMm + (helvetica.widthOfTextAtSize(run.text, 10.5) * 25.4) / 72;
      expect(rightMm, run.text).toBeLessThanOrEqual(window.left + window.width);
      expect(run.topMm, run.text).toBeLessThan(window.top + window.height);
    }
  });

  describe('invisible and control characters', () => {
    /** A zod schema, as far as this walk needs it, and its definition, read the way zod 4 keeps it. */
    type ZodType = { safeParse: (value: unknown) => { success: boolean; data?: unknown }; _zod: { def: Def } };
    type Def = { type: string; shape?: Record<string, ZodType>; innerType?: ZodType; in?: ZodType; element?: ZodType };
    const defOf = (schema: ZodType): Def => schema._zod.def;
    const isSchema = (value: unknown): value is ZodType => typeof value === 'object' && value !== null && '_zod' in value;
    /** Through optional, default, nullable and the input side of a pipe or transform. */
    const unwrap = (schema: ZodType): ZodType => {
      const def = defOf(schema);
      if (def.innerType) return unwrap(def.innerType);
      if (def.type === 'pipe' && def.in) return unwrap(def.in);
      return schema;
    };
    /** Secrets are compared, never shown: a password may be any characters, a token is the server's own. */
    const SECRETS = new Set(['password', 'currentPassword', 'newPassword', 'token', 'refreshToken', 'deviceToken', 'deviceLink', 'proof']);
    /** These files are parsed into rows, each checked by keeperInputSchema or permitInputSchema (in this list). */
    const PARSED_LATER = new Set(['keeperRepliesInputSchema.csv', 'permitImportInputSchema.csv']);
    const HIDDEN = [
      '\u200B',
      '\u200E',
      '\u200F',
      '\u061C',
      '\u2060',
      '\uFEFF',
      '\u202E',
      '\u2066',
      '\u2028',
      '\u2029',
      '\u0000',
      '\u001B',
      '\u007F',
      '\u0085',
    ];
    /** Invisible, but how people write: an emoji sequence, a Persian name, a flag, a soft hyphen from a pasted document. */
    const WRITTEN = {
      'a ZWJ emoji (woman technologist)': '\u{1F469}\u200D\u{1F4BB}',
      'a ZWNJ name (Persian)': '\u0645\u06CC\u200C\u062E\u0648\u0627\u0647\u0645',
      'the flag of England': '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}',
      'a soft hyphen': 'park\u00ADing',
    };
    const BASELINES = ['Ab cd', 'ab@example.com', '2026-02-04', 'AB12CDE', 'SW1A 1AA', '/charge', 'b3b5c3a4-0f5e-4d3c-9d55-1f1e2d3c4b5a'];

    /** Every text field of every input and query schema, with a value it takes and its own schema. */
    const textFields = Object.entries(shared)
      .filter(([name, value]) => /(Input|Query|Fields)Schema$/.test(name) && isSchema(value))
      .flatMap(([name, schema]) => {
        const object = unwrap(schema as ZodType);
        const shape = defOf(object).shape ?? {};
        return Object.entries(shape).flatMap(([field, fieldSchema]) => {
          let leaf = unwrap(fieldSchema);
          const isList = defOf(leaf).type === 'array';
          if (isList) leaf = unwrap(defOf(leaf).element!);
          if (defOf(leaf).type !== 'string' || SECRETS.has(field) || PARSED_LATER.has(`${name}.${field}`)) return [];
          const wrap = (text: string) => (isList ? [text] : text);
          const baseline = BASELINES.find((text) => fieldSchema.safeParse(wrap(text)).success);
          return [{ path: `${name}.${field}`, fieldSchema, wrap, baseline }];
        });
      });

    it('refuses each in every text field of every input schema', () => {
      // The fields this covers, so a schema that stops being found is noticed.
      expect(textFields.length).toBeGreaterThan(60);
      const accepted: string[] = [];
      for (const { path, fieldSchema, wrap, baseline } of textFields) {
        // A field no plain value passes is a format (a date-time, an enum-like code): it takes none of these either.
        const base = baseline ?? 'Ab cd';
        for (const hidden of HIDDEN) {
          const value = `${base.slice(0, 2)}${hidden}${base.slice(2)}`;
          const parsed = fieldSchema.safeParse(wrap(value));
          // A registration is normalised to its letters and digits: what is kept has none of these.
          const kept = parsed.success && [parsed.data].flat().some((text) => typeof text === 'string' && text.includes(hidden));
          if (kept) accepted.push(`${path} took U+${hidden.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`);
        }
      }
      expect(accepted).toEqual([]);
      // Most fields have a plain value, so the loop above tested them rather than their format.
      expect(textFields.filter((field) => field.baseline !== undefined).length).toBeGreaterThan(50);
    });

    it('takes the joiners, tags and soft hyphens people write with in every free-text field', () => {
      const free = textFields.filter((field) => field.baseline === 'Ab cd');
      expect(free.length).toBeGreaterThan(30);
      const refused: string[] = [];
      for (const { path, fieldSchema, wrap } of free) {
        for (const [what, text] of Object.entries(WRITTEN)) {
          const parsed = fieldSchema.safeParse(wrap(`Ab ${text}`)) as { success: boolean; error?: { issues: { message: string }[] } };
          // A format (a postcode's length, a registration's letters) may refuse it for its own reasons.
          const hiddenMessages: string[] = [VALIDATION_MESSAGES.noControlCharacters, VALIDATION_MESSAGES.noControlCharactersInText];
          const asHidden = parsed.error?.issues.some((issue) => hiddenMessages.includes(issue.message));
          if (asHidden) refused.push(`${path} refused ${what}`);
        }
      }
      expect(refused).toEqual([]);
    });

    it('keeps line breaks and tabs in a field of several lines', () => {
      const several = textFields.filter((field) =>
        [
          'appealInputSchema.address',
          'appealInputSchema.text',
          'appealInputSchema.driverAddress',
          'appealDecisionInputSchema.reasons',
          'createCarParkInputSchema.signageTerms',
          'operatorTermsInputSchema.howToPay',
          'changePcnStatusInputSchema.adminNotes',
        ].includes(field.path),
      );
      expect(several).toHaveLength(7);
      for (const { path, fieldSchema, wrap } of several) {
        expect(fieldSchema.safeParse(wrap('4 Mill Lane\r\nLeeds\n\tLS1 4AB')).success, path).toBe(true);
      }
    });

    it('answers 400 naming the field, over the API', async () => {
      const named = await t.request('POST', '/users', {
        token: admin.token,
        json: { firstName: 'Eve\u200Blyn', lastName: 'Smith', email: 'evelyn@example.com', role: 'USER' },
      });
      expect(named.status).toBe(400);
      expect(named.json.details).toEqual({ firstName: VALIDATION_MESSAGES.noControlCharacters });
      const pcn = await charge('CC12CTL');
      const appeal = await t.fileAndConfirmAppeal(
        chargeToken(t, pcn.id),
        appealForm({ name: 'Dana\u061CDriver', text: 'I was parked\u0000 legally.\u001B[2J' }),
      );
      expect(appeal.status).toBe(400);
      expect(appeal.json.details).toEqual({
        name: VALIDATION_MESSAGES.noControlCharacters,
        text: VALIDATION_MESSAGES.noControlCharactersInText,
      });
    });
  });
});
