import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  draftReferenceOfKey,
  IDEMPOTENCY_KEY_HEADER,
  type Appeal,
  type AppealSubmitted,
  type ChargeLookupResponse,
  type Pcn,
  type PublicCharge,
  type SentDocumentListResponse,
} from '@parkpatrol/shared';
import { DEMO_ACCOUNTS } from '../src/db/seed.ts';
import { HIRE_COMPANY_KEEPER, hirerInput, NAMED_DRIVER } from './support/driver-and-hirer.ts';
import { LETTER_KEEPER } from './support/keeper-notices.ts';
import { appealForm } from './support/appeals.ts';
import { readPdfText } from './support/pdf.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { freePort } from '../../scripts/test-support.ts';
import { callServer, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { jpegUpload, pcnForm } from './fixtures.ts';
import { ON_POSTGRES } from './test-app.ts';

/**
 * The charge's lawful life as it is lived: the real server, stopped and started again on each
 * day of the story under Debian's faketime, on one database (SQLite here; PostgreSQL in the
 * PostgreSQL pass). Every date below is worked by hand from Schedule 4 and the Single Code, not
 * read back from our own rules.
 *
 * The story: three tickets fixed on Good Friday, 26 March 2027, the Friday before the clocks go
 * forward and before Easter Monday. Paragraph 8: the notice to keeper may not be given before
 * the end of the 28 days beginning with the day after (so on Saturday 24 April at the earliest),
 * and must be given within 56 days beginning with that day (by Friday 21 May). A posted letter is
 * presumed given on the second working day after posting, but a fast post could deliver it
 * sooner, so none is posted before the earliest day itself (decision 0016): the posting window is
 * Monday 26 April (given Wednesday 28 April) to Wednesday 19 May (given Friday 21 May). Appeals
 * are then open 28 days from the day the notice to keeper is given: to Wednesday 26 May.
 */
describe('a charge on a faked clock: the real server on each day of the story', () => {
  let database: PostgresDatabase | undefined;
  let dataDir: string;
  let port: number;
  let server: ServerProcess | undefined;
  const env: Record<string, string> = {};

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-faked-clock-'));
    port = await freePort();
    if (ON_POSTGRES) {
      database = await createPostgresDatabase(process.env.TEST_POSTGRES_URL!);
      env.DATABASE_URL = database.url;
    }
  });
  afterAll(async () => {
    await server?.kill('SIGTERM');
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** The server as it runs on that UTC instant, the one before it stopped. */
  async function on(instant: string): Promise<ServerProcess> {
    await server?.kill('SIGTERM');
    server = await startServerProcess({ dataDir, port, env, fakeTime: instant });
    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(Date.parse(health.headers.get('date')!), 'the server lives on the faked day').toBeGreaterThanOrEqual(
      Date.parse(`${instant.replace(' ', 'T')}Z`) - 1000,
    );
    return server;
  }
  async function signIn(account: { email: string; password: string }): Promise<string> {
    const res = await callServer(server!, 'POST', '/auth/login', { json: { email: account.email, password: account.password } });
    expect(res.status, res.json.message).toBe(200);
    return res.json.data.token as string;
  }
  async function lookUp(reference: string, registration: string): Promise<{ status: number; found?: ChargeLookupResponse }> {
    const res = await callServer(server!, 'POST', '/public/charges/lookup', { json: { reference, registration } });
    return { status: res.status, found: res.status === 200 ? (res.json.data as ChargeLookupResponse) : undefined };
  }
  /** A letter to one charge's hirer, named driver or keeper (as a request to name the driver), for a posting day. */
  async function pcnLetter(token: string, pcnId: string, kind: string, postOn?: string) {
    const res = await fetch(`${server!.baseUrl}/api/pcns/${pcnId}/letters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ kind, ...(postOn && { postOn }) }),
    });
    return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
  }
  /** Filed from /charge, then confirmed by the link the server wrote to its outbox (decision 0032). */
  async function appeal(accessToken: string, email: string) {
    const filed = await fetch(`${server!.baseUrl}/api/public/charges/current/appeal`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      body: appealForm({ email }),
    });
    if (filed.status !== 202) return { status: filed.status, json: (await filed.json()) as { data: AppealSubmitted; message?: string } };
    // The confirmation is a job's email, written just after the answer.
    const outbox = join(dataDir, 'outbox');
    const confirmationIn = async () => {
      const mails = await Promise.all(
        (existsSync(outbox) ? readdirSync(outbox) : []).sort().map((name) => simpleParser(readFileSync(join(outbox, name)))),
      );
      return mails.filter((mail) => JSON.stringify(mail.to).includes(email) && mail.subject?.startsWith('Confirm your appeal')).at(-1);
    };
    let confirmation = await confirmationIn();
    for (const deadline = Date.now() + 15_000; !confirmation && Date.now() < deadline; confirmation = await confirmationIn()) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const token = /confirm-appeal\?token=([A-Za-z0-9_-]+)/.exec(confirmation?.text ?? '')?.[1];
    const res = await callServer(server!, 'POST', '/public/appeals/confirm', { json: { token } });
    return { status: res.status, json: res.json as { data: AppealSubmitted; message?: string } };
  }

  type Ticket = { pcn: Pcn; key: string; registration: string };
  /** Keeper A pays in part and appeals in time; B appeals late; C writes; H is a lease car; N's keeper names the driver; L is on byelaw land. */
  const tickets: Record<'A' | 'B' | 'C' | 'H' | 'N' | 'L', Ticket> = {} as never;
  const POSTED_WITH_NOTICES_TO_KEEPER = ['A', 'B', 'C', 'H', 'N'] as const;

  it('Good Friday, 26 March 2027: six tickets fixed, approved and their keepers entered (one a lease company, one on byelaw land); the window worked out; a £150 charge refused', async () => {
    await on('2027-03-26 10:40:00');
    const officer = await signIn(DEMO_ACCOUNTS.officer);
    const admin = await signIn(DEMO_ACCOUNTS.admin);
    const carParks = await callServer(server!, 'GET', '/car-parks', { token: officer });
    const [carParkId, stationId] = ((carParks.json.data.items ?? carParks.json.data) as Array<{ id: string }>).map((park) => park.id);
    // The second car park turns out to be under railway byelaws: not "relevant land" (paragraph 3).
    const byelaws = await callServer(server!, 'PUT', `/car-parks/${stationId}`, { token: admin, json: { relevantLand: false } });
    expect(byelaws.status, byelaws.json.message).toBe(200);

    for (const name of ['A', 'B', 'C', 'H', 'N', 'L'] as const) {
      const registration = `GF27 ${name}${name}${name}`;
      const key = randomUUID();
      const filed = await fetch(`${server!.baseUrl}/api/pcns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${officer}`, [IDEMPOTENCY_KEY_HEADER]: key },
        body: pcnForm({
          vehicleRegistration: registration,
          carParkId: name === 'L' ? stationId : carParkId,
          offenceType: 'PARKING_WITHOUT_PERMIT',
          description: 'No permit displayed',
          location: 'Bay 3',
          observedAt: '2027-03-26T10:14:00.000Z',
          issuedAt: '2027-03-26T10:24:00.000Z',
          noticeServedBy: 'AFFIXED',
          noticeServedAt: '2027-03-26T10:24:00.000Z',
          images: [jpegUpload(71), jpegUpload(72)],
        }),
      });
      const body = (await filed.json()) as { data: Pcn; message?: string };
      expect(filed.status, body.message).toBe(201);
      for (const status of ['UNDER_REVIEW', 'APPROVED']) {
        const moved = await callServer(server!, 'PATCH', `/pcns/${body.data.id}/status`, { token: admin, json: { status } });
        expect(moved.status, moved.json.message).toBe(200);
      }
      const keeper = await callServer(server!, 'PUT', `/pcns/${body.data.id}/keeper`, {
        token: admin,
        json: name === 'H' ? HIRE_COMPANY_KEEPER : LETTER_KEEPER,
      });
      expect(keeper.status, keeper.json.message).toBe(200);
      const pcn = keeper.json.data as Pcn;
      if (name === 'L') {
        expect(pcn.keeperNotice).toMatchObject({ route: 'NOT_AVAILABLE', gap: 'NOT_RELEVANT_LAND', firstPostingDate: null });
      } else {
        expect(pcn.keeperNotice).toMatchObject({ firstPostingDate: '2027-04-26', lastPostingDate: '2027-05-19', postedOn: null });
      }
      tickets[name] = { pcn, key, registration };
    }

    const tooMuch = await callServer(server!, 'POST', '/car-parks', {
      token: admin,
      json: { name: 'Station Approach', siteCode: `SA${randomUUID().slice(0, 4)}`, chargePence: 15_000 },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json).toMatchObject({ details: { chargePence: "At most £100 (the Single Code's cap)" } });
  }, 120_000);

  it('Friday 23 April (day 28): too soon to post, and £25 paid; Monday 26 April: letters dated for tomorrow cannot be marked posted today; made again, kept as made with what was paid, posted, given Wednesday 28 April; on byelaw land, a request to name the driver instead', async () => {
    const ids = POSTED_WITH_NOTICES_TO_KEEPER.map((name) => tickets[name].pcn.id);
    await on('2027-04-23 09:00:00');
    let admin = await signIn(DEMO_ACCOUNTS.admin);
    const early = await callServer(server!, 'POST', '/keeper-notices/letters', { token: admin, json: { pcnIds: ids } });
    expect(early.status, early.json.message).toBe(422);
    expect(early.json).toMatchObject({ code: 'KEEPER_NOTICE_REFUSED' });
    // The first keeper pays £25 by cheque today: the discount ended on 9 April, so £75 remains.
    const paid = await callServer(server!, 'POST', `/pcns/${tickets.A.pcn.id}/payments`, {
      token: admin,
      json: { amountPence: 2_500, paidOn: '2027-04-23', method: 'CHEQUE', reference: 'Cheque 000123' },
      headers: { 'Idempotency-Key': randomUUID() },
    });
    expect(paid.status, paid.json.message).toBe(200);

    await on('2027-04-26 09:00:00');
    admin = await signIn(DEMO_ACCOUNTS.admin);
    const letters = (postOn?: string) =>
      fetch(`${server!.baseUrl}/api/keeper-notices/letters`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
        body: JSON.stringify({ pcnIds: ids, ...(postOn && { postOn }) }),
      });
    expect((await letters('2027-04-27')).status).toBe(200);
    const mismatch = await callServer(server!, 'POST', '/keeper-notices/posted', {
      token: admin,
      json: { pcnIds: ids, postedOn: '2027-04-26' },
    });
    expect(mismatch.status).toBe(409);
    expect(mismatch.json).toMatchObject({ code: 'LETTER_DATE_MISMATCH' });
    expect(Object.keys(mismatch.json.details ?? {}).sort()).toEqual([...ids].sort());

    const made = await letters();
    expect(made.status).toBe(200);
    expect(made.headers.get('content-type')).toBe('application/pdf');
    const posted = await callServer(server!, 'POST', '/keeper-notices/posted', {
      token: admin,
      json: { pcnIds: ids, postedOn: '2027-04-26' },
    });
    expect(posted.status, posted.json.message).toBe(200);
    for (const id of ids) {
      const pcn = (await callServer(server!, 'GET', `/pcns/${id}`, { token: admin })).json.data as Pcn;
      expect(pcn.keeperNotice).toMatchObject({ postedOn: '2027-04-26', deemedGivenOn: '2027-04-28' });
      // The letter given is the one kept: listed with its posting day and hash, downloaded byte for byte.
      const listed = (await callServer(server!, 'GET', `/pcns/${id}/documents`, { token: admin })).json.data as SentDocumentListResponse;
      const letter = listed.items.filter((document) => document.kind === 'NOTICE_TO_KEEPER' && document.postOn === '2027-04-26');
      expect(letter).toHaveLength(1);
      const download = await fetch(`${server!.baseUrl}/api/pcns/${id}/documents/${letter[0]!.id}`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      const bytes = new Uint8Array(await download.arrayBuffer());
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(letter[0]!.sha256);
      const { flat } = await readPdfText(bytes);
      expect(flat).toContain('26 Apr 2027');
      // What was paid and what remains, as at 23:59 on the day before posting.
      expect(flat).toContain(
        id === tickets.A.pcn.id
          ? 'As at 23:59 on 25 Apr 2027, £25 has been paid and £75 remains unpaid.'
          : 'As at 23:59 on 25 Apr 2027, £100 remains unpaid.',
      );
      // The lease company is asked for the hirer and the documents of paragraph 13(2).
      expect(flat.includes('If the vehicle was hired out')).toBe(id === tickets.H.pcn.id);
    }

    // Byelaw land: no notice to keeper, but a request to name the driver that claims no keeper
    // liability, kept and posted the same way.
    const station = tickets.L.pcn.id;
    const refused = await callServer(server!, 'POST', '/keeper-notices/letters', { token: admin, json: { pcnIds: [station] } });
    expect(refused.status).toBe(422);
    const request = await pcnLetter(admin, station, 'REQUEST_TO_NAME_DRIVER');
    expect(request.status).toBe(200);
    const requestText = (await readPdfText(request.bytes)).flat;
    expect(requestText).toContain('This is not a notice to keeper');
    expect(requestText).not.toContain('right to recover from you');
    const requestPosted = await callServer(server!, 'POST', `/pcns/${station}/letters/posted`, {
      token: admin,
      json: { kind: 'REQUEST_TO_NAME_DRIVER', postedOn: '2027-04-26' },
    });
    expect(requestPosted.status, requestPosted.json.message).toBe(200);
    const stationPcn = (await callServer(server!, 'GET', `/pcns/${station}`, { token: admin })).json.data as Pcn;
    expect(stationPcn).toMatchObject({ status: 'ISSUED', keeperNotice: { route: 'NOT_AVAILABLE', postedOn: '2027-04-26' } });
  }, 120_000);

  it("Wednesday 5 May (day 40): the keeper finds the charge by the ticket's own reference and appeals in time, the charge held; a postal appeal is entered and runs from the day it came; the hirer gets a notice inside its 21 days; a named driver gets theirs", async () => {
    await on('2027-05-05 11:00:00');
    const { A: first, B: second } = tickets;
    const byDraft = await lookUp(draftReferenceOfKey(second.key)!, second.registration.toLowerCase());
    expect(byDraft.status).toBe(200);
    expect(byDraft.found!.charge.reference).toBe(`PCN-${second.pcn.pcnNumber}`);

    const found = await lookUp(first.pcn.pcnNumber, first.registration);
    expect(found.status).toBe(200);
    expect(found.found!.charge).toMatchObject({ appealUntil: '2027-05-26', onHold: false });
    const day40 = await appeal(found.found!.accessToken, 'keeper40@example.com');
    expect(day40.status, day40.json.message).toBe(201);
    expect(day40.json.data.appeal.isLate).toBe(false);
    const now = await callServer(server!, 'GET', '/public/charges/current', { token: found.found!.accessToken });
    expect(now.json.data as PublicCharge).toMatchObject({ onHold: true, appealUntil: '2027-05-26' });

    // The third keeper wrote instead: the letter came yesterday, the day after the bank holiday,
    // and is entered today; it runs from the day it came.
    const admin = await signIn(DEMO_ACCOUNTS.admin);
    const form = appealForm({ email: '', channel: 'POST', receivedOn: '2027-05-04', name: 'Pat Post' });
    form.append('pcnId', tickets.C.pcn.id);
    const entered = await fetch(`${server!.baseUrl}/api/appeals`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      body: form,
    });
    const postal = (await entered.json()) as { data: Appeal; message?: string };
    expect(entered.status, postal.message).toBe(201);
    expect(postal.data).toMatchObject({ channel: 'POST', isLate: false, respondBy: '2027-06-01', appellant: { email: null } });

    // The lease company sent the hirer's documents yesterday (paragraph 13): the notice to hirer
    // must be given within 21 days beginning with today, so it is posted by Friday 21 May.
    const hire = tickets.H.pcn.id;
    const hirer = await callServer(server!, 'PUT', `/pcns/${hire}/hirer`, { token: admin, json: hirerInput('2027-05-04') });
    expect(hirer.status, hirer.json.message).toBe(200);
    expect((hirer.json.data as Pcn).hirer).toMatchObject({ window: { firstPostingDate: '2027-05-05', lastPostingDate: '2027-05-21' } });
    const tooLate = await pcnLetter(admin, hire, 'NOTICE_TO_HIRER', '2027-05-24');
    expect(tooLate.status).toBe(422);
    const toHirer = await pcnLetter(admin, hire, 'NOTICE_TO_HIRER');
    expect(toHirer.status).toBe(200);
    expect((await readPdfText(toHirer.bytes)).flat).toContain('Mr Harry Hirer');
    const hirerPosted = await callServer(server!, 'POST', `/pcns/${hire}/letters/posted`, {
      token: admin,
      json: { kind: 'NOTICE_TO_HIRER', postedOn: '2027-05-05' },
    });
    expect(hirerPosted.status, hirerPosted.json.message).toBe(200);

    // Keeper N's reply named the driver: the keeper is pursued no further; the driver gets a notice.
    const named = tickets.N;
    const driver = await callServer(server!, 'PUT', `/pcns/${named.pcn.id}/driver`, { token: admin, json: NAMED_DRIVER });
    expect(driver.status, driver.json.message).toBe(200);
    const again = await callServer(server!, 'POST', '/keeper-notices/letters', { token: admin, json: { pcnIds: [named.pcn.id] } });
    expect(again.status).toBe(422);
    expect((await pcnLetter(admin, named.pcn.id, 'NOTICE_TO_NAMED_DRIVER')).status).toBe(200);
    const driverPosted = await callServer(server!, 'POST', `/pcns/${named.pcn.id}/letters/posted`, {
      token: admin,
      json: { kind: 'NOTICE_TO_NAMED_DRIVER', postedOn: '2027-05-05' },
    });
    expect(driverPosted.status, driverPosted.json.message).toBe(200);
    const seen = await lookUp(named.pcn.pcnNumber, named.registration);
    expect(seen.found!.charge.namedDriverNotice).toEqual({ postedOn: '2027-05-05', givenOn: '2027-05-07' });
  }, 120_000);

  it('Friday 4 June (day 70): the other keeper appeals after 26 May; taken, marked late, holding nothing', async () => {
    await on('2027-06-04 15:00:00');
    const second = tickets.B;
    const found = await lookUp(`PCN-${second.pcn.pcnNumber}`, second.registration);
    expect(found.status).toBe(200);
    const day70 = await appeal(found.found!.accessToken, 'keeper70@example.com');
    expect(day70.status, day70.json.message).toBe(201);
    expect(day70.json.data.appeal.isLate).toBe(true);
    const now = await callServer(server!, 'GET', '/public/charges/current', { token: found.found!.accessToken });
    expect(now.json.data as PublicCharge).toMatchObject({ onHold: false, appealUntil: '2027-05-26', appeal: { isLate: true } });
  }, 120_000);
});
