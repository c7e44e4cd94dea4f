import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  draftReferenceOfKey,
  IDEMPOTENCY_KEY_HEADER,
  type AppealSubmitted,
  type ChargeLookupResponse,
  type Pcn,
  type PublicCharge,
} from '@parkpatrol/shared';
import { DEMO_ACCOUNTS } from '../src/db/seed.ts';
import { LETTER_KEEPER } from './support/keeper-notices.ts';
import { appealForm } from './support/appeals.ts';
import { createPostgresDatabase, type PostgresDatabase } from './support/postgres-database.ts';
import { callServer, findFreePort, startServerProcess, type ServerProcess } from './support/server-process.ts';
import { jpegUpload, pcnForm } from './fixtures.ts';
import { ON_POSTGRES } from './test-app.ts';

/**
 * The charge's lawful life as it is lived: the real server, stopped and started again on each
 * day of the story under Debian's faketime, on one database (SQLite here; PostgreSQL in the
 * PostgreSQL pass). Every date below is worked by hand from Schedule 4 and the Single Code, not
 * read back from our own rules.
 *
 * The story: two tickets fixed on Good Friday, 26 March 2027, the Friday before the clocks go
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
    port = await findFreePort();
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
  async function appeal(accessToken: string, email: string) {
    const res = await fetch(`${server!.baseUrl}/api/public/charges/current/appeal`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      body: appealForm({ email }),
    });
    return { status: res.status, json: (await res.json()) as { data: AppealSubmitted; message?: string } };
  }

  const tickets: Array<{ pcn: Pcn; key: string; registration: string }> = [];

  it('Good Friday, 26 March 2027: two tickets fixed, approved and their keepers entered; the window worked out; a £150 charge refused', async () => {
    await on('2027-03-26 10:40:00');
    const officer = await signIn(DEMO_ACCOUNTS.officer);
    const admin = await signIn(DEMO_ACCOUNTS.admin);
    const carParks = await callServer(server!, 'GET', '/car-parks', { token: officer });
    const carParkId = (carParks.json.data.items ?? carParks.json.data)[0].id as string;

    for (const registration of ['GF27 AAA', 'GF27 BBB']) {
      const key = randomUUID();
      const filed = await fetch(`${server!.baseUrl}/api/pcns`, {
        method: 'POST',
        headers: { authorization: `Bearer ${officer}`, [IDEMPOTENCY_KEY_HEADER]: key },
        body: pcnForm({
          vehicleRegistration: registration,
          carParkId,
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
      const keeper = await callServer(server!, 'PUT', `/pcns/${body.data.id}/keeper`, { token: admin, json: LETTER_KEEPER });
      expect(keeper.status, keeper.json.message).toBe(200);
      const pcn = keeper.json.data as Pcn;
      expect(pcn.keeperNotice).toMatchObject({ firstPostingDate: '2027-04-26', lastPostingDate: '2027-05-19', postedOn: null });
      tickets.push({ pcn, key, registration });
    }

    const tooMuch = await callServer(server!, 'POST', '/car-parks', {
      token: admin,
      json: { name: 'Station Approach', siteCode: `SA${randomUUID().slice(0, 4)}`, chargePence: 15_000 },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.json).toMatchObject({ details: { chargePence: "At most £100 (the Single Code's cap)" } });
  }, 120_000);

  it('Friday 23 April (day 28): too soon to post; Monday 26 April: posted, given Wednesday 28 April', async () => {
    const ids = tickets.map((ticket) => ticket.pcn.id);
    await on('2027-04-23 09:00:00');
    let admin = await signIn(DEMO_ACCOUNTS.admin);
    const early = await callServer(server!, 'POST', '/keeper-notices/letters', { token: admin, json: { pcnIds: ids } });
    expect(early.status, early.json.message).toBe(422);
    expect(early.json).toMatchObject({ code: 'KEEPER_NOTICE_REFUSED' });

    await on('2027-04-26 09:00:00');
    admin = await signIn(DEMO_ACCOUNTS.admin);
    const letters = await fetch(`${server!.baseUrl}/api/keeper-notices/letters`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ pcnIds: ids }),
    });
    expect(letters.status).toBe(200);
    expect(letters.headers.get('content-type')).toBe('application/pdf');
    const posted = await callServer(server!, 'POST', '/keeper-notices/posted', {
      token: admin,
      json: { pcnIds: ids, postedOn: '2027-04-26' },
    });
    expect(posted.status, posted.json.message).toBe(200);
    for (const id of ids) {
      const pcn = (await callServer(server!, 'GET', `/pcns/${id}`, { token: admin })).json.data as Pcn;
      expect(pcn.keeperNotice).toMatchObject({ postedOn: '2027-04-26', deemedGivenOn: '2027-04-28' });
    }
  }, 120_000);

  it("Wednesday 5 May (day 40): the keeper finds the charge by the ticket's own reference and appeals in time; the charge is held", async () => {
    await on('2027-05-05 11:00:00');
    const [first, second] = tickets as [(typeof tickets)[0], (typeof tickets)[0]];
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
  }, 120_000);

  it('Friday 4 June (day 70): the other keeper appeals after 26 May; taken, marked late, holding nothing', async () => {
    await on('2027-06-04 15:00:00');
    const second = tickets[1]!;
    const found = await lookUp(`PCN-${second.pcn.pcnNumber}`, second.registration);
    expect(found.status).toBe(200);
    const day70 = await appeal(found.found!.accessToken, 'keeper70@example.com');
    expect(day70.status, day70.json.message).toBe(201);
    expect(day70.json.data.appeal.isLate).toBe(true);
    const now = await callServer(server!, 'GET', '/public/charges/current', { token: found.found!.accessToken });
    expect(now.json.data as PublicCharge).toMatchObject({ onHold: false, appealUntil: '2027-05-26', appeal: { isLate: true } });
  }, 120_000);
});
