import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { inject } from 'vitest';
import { IDEMPOTENCY_KEY_HEADER, pcnTitle, type Role, type User } from '@parkpatrol/shared';
import { createApp } from '../src/app.ts';
import type { AppDeps } from '../src/app-env.ts';
import { loadConfig, type Config } from '../src/config.ts';
import pg from 'pg';
import { connectDatabase, migrateToLatest, type Db, type DatabaseTarget } from '../src/db/database.ts';
import { fillMissingKeeperPostingDays } from '../src/repositories/keeper-posting-days.ts';
import { verifyChargeToken } from '../src/auth/charge-token.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { createMetrics } from '../src/services/metrics.ts';
import { createCardProcessor } from '../src/services/card-processor.ts';
import { createSignInLimiter, type SignInPolicy } from '../src/auth/sign-in-limiter.ts';
import { createDiskEvidenceStore, type EvidenceStore } from '../src/services/evidence-storage.ts';
import type { UploadGate } from '../src/services/upload-gate.ts';
import { createLogger, type Logger } from '../src/services/logger.ts';
import { createMailer } from '../src/services/mail.ts';
import { connectJobQueue } from '../src/jobs/connect-job-queue.ts';
import { jobHandlers } from '../src/jobs/job-handlers.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** From global-setup.ts: a SQLite file migrated to the latest schema, copied for each test app's database. */
    sqliteTemplate: string;
    /** With TEST_POSTGRES_URL: a database migrated likewise, the template of each test app's. */
    postgresTemplate: string | null;
  }
}

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
/** A signed-in user of a test app, with their tokens. */
export type Session = Awaited<ReturnType<TestApp['signedInUser']>>;

/** The suite runs on PostgreSQL (TEST_POSTGRES_URL): the few tests that read the SQLite file itself are skipped. */
export const ON_POSTGRES = Boolean(process.env.TEST_POSTGRES_URL);

/** What a script run beside a test app needs to open the same database (npm run create-user, retention). */
export function databaseEnv(t: Pick<TestApp, 'config'>): Record<string, string> {
  const { database, jwtSecret } = t.config;
  return database.engine === 'postgres' ? { DATABASE_URL: database.url, JWT_SECRET: jwtSecret } : {};
}

/**
 * With TEST_POSTGRES_URL set (a PostgreSQL server where that user may create databases, as
 * `npm run test:postgres` starts one), each test app gets a new database there instead of a
 * SQLite file: the same suite on both engines. The few tests that read the SQLite file directly
 * (`t.sqlite`) are SQLite's own. `engine: 'sqlite'` keeps a SQLite file even then (the source of
 * the move to PostgreSQL).
 */
async function freshDatabase(dataDir: string, engine?: 'sqlite'): Promise<{ target: DatabaseTarget; drop: () => Promise<void> }> {
  const serverUrl = engine === 'sqlite' ? undefined : process.env.TEST_POSTGRES_URL;
  // A copy of the database global-setup.ts migrated once (undefined outside the api project: then
  // migrateToLatest below makes the schema itself).
  if (!serverUrl) {
    const file = join(dataDir, 'parkpatrol.sqlite');
    const template = inject('sqliteTemplate');
    if (template) copyFileSync(template, file);
    return { target: { engine: 'sqlite', file }, drop: async () => undefined };
  }
  // Database names cannot be bound parameters; this one is made of hex digits only, and so is the template's.
  const name = `test_${randomUUID().replaceAll('-', '')}`;
  const template = inject('postgresTemplate');
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    target: { engine: 'postgres', url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * The real app over a fresh, migrated database (a SQLite file by default) and its own data
 * folder. Nothing of ours is mocked. The app's clock stands still at the moment the app was
 * made: time passes only when a test moves it (`clock.offsetMs`, or `clock.frozenAtMs` for a
 * given moment), so token expiry, rate-limit windows and dates never depend on how fast the
 * machine answers. `wallClock: true` runs it on the machine's time instead (plus `offsetMs`),
 * for the rare test that needs time to pass by itself; say why where it is asked for. With
 * `sharingDatabaseOf`, the app opens that app's database with its own connections instead, as a
 * second API process would; close it before that app.
 */
export async function createTestApp(
  options: {
    smtpUrl?: string;
    /** The SMTP test server's messages, when `smtpUrl` is its: where fileAndConfirmAppeal finds the link. */
    mailbox?: { messages: ParsedMail[] };
    config?: Partial<Config>;
    signInPolicy?: SignInPolicy;
    uploadGate?: UploadGate;
    bodyDeadlines?: AppDeps['bodyDeadlines'];
    evidence?: EvidenceStore;
    engine?: 'sqlite';
    sharingDatabaseOf?: { config: Pick<Config, 'database'> };
    /** The machine's time instead of a clock that stands still (see above): only with a reason beside it. */
    wallClock?: true;
    /** Jobs are stored and not worked until the test calls `workJobs()`: to see a job's work before it is done. */
    jobsWaitForTest?: true;
  } = {},
) {
  const dataDir = mkdtempSync(join(tmpdir(), 'parkpatrol-test-'));
  const config = {
    ...loadConfig({
      DATA_DIR: dataDir,
      JWT_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
      APP_URL: 'http://localhost:5173',
      SMTP_URL: options.smtpUrl,
    }),
    ...options.config,
  };
  const database = options.sharingDatabaseOf
    ? { target: options.sharingDatabaseOf.config.database, drop: async () => undefined }
    : await freshDatabase(dataDir, options.engine);
  config.database = database.target;
  const opened = connectDatabase(database.target);
  const { db, close: closeDatabase } = opened;
  /** Only on SQLite: for the tests that look into the file itself. */
  const sqlite = opened.sqlite!;
  await migrateToLatest(db);
  await fillMissingKeeperPostingDays(db);
  const logLines: string[] = [];
  const logger: Logger = createLogger((line) => logLines.push(line));
  // The clock stands at `frozenAtMs` (null: the machine's time, with `wallClock`); `offsetMs` moves it.
  const clock: { offsetMs: number; frozenAtMs: number | null } = { offsetMs: 0, frozenAtMs: options.wallClock ? null : Date.now() };
  const now = () => new Date((clock.frozenAtMs ?? Date.now()) + clock.offsetMs);
  const mailer = createMailer({ db, smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom, logger });
  const evidence = options.evidence ?? createDiskEvidenceStore(config.uploadsDir);
  const jobs = await connectJobQueue(db, database.target, logger);
  // A second process on one SQLite file is not a thing the product does: its queue is the first app's.
  const metrics = createMetrics();
  const handlers = jobHandlers({ db, evidence, config, now, logger, mailer, metrics });
  const worksJobs = !options.sharingDatabaseOf || database.target.engine === 'postgres';
  let isWorkingJobs = worksJobs && !options.jobsWaitForTest;
  if (isWorkingJobs) await jobs.work(handlers);
  const deps: AppDeps = {
    db,
    config,
    mailer,
    logger,
    now,
    evidence,
    jobs,
    metrics,
    cardProcessor: createCardProcessor(config, now),
  };
  if (options.signInPolicy) deps.signInLimiter = createSignInLimiter({ db, now, policy: options.signInPolicy });
  if (options.uploadGate) deps.uploadGate = options.uploadGate;
  if (options.bodyDeadlines) deps.bodyDeadlines = options.bodyDeadlines;
  const app = createApp(deps);

  async function request(
    method: string,
    path: string,
    init: { token?: string; json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (init.token) headers.authorization = `Bearer ${init.token}`;
    let body = init.body;
    if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    if (body instanceof FormData) {
      // Sent as its encoded bytes, as a phone's upload arrives. A Request built on a FormData gets a
      // body stream from Node's fetch (undici) that, once the server stops reading early (a refused
      // upload cancels it), still writes to it in a later microtask and throws an uncaught
      // 'ReadableStream is already closed' on Node 24. A server never receives that stream.
      const encoded = new Response(body);
      headers['content-type'] ??= encoded.headers.get('content-type') ?? '';
      body = new Uint8Array(await encoded.arrayBuffer());
    }
    const res = await app.request(`/api${path}`, { method, headers, body });
    // The headers as the server sends them, read before the body. Once a file in this worker has
    // started a real server, Response is @hono/node-server's, which drops the headers that were
    // added after the answer was made (the security headers) when its body is read. The server
    // writes the headers it holds, as this copy does.
    const answerHeaders = new Headers(res.headers);
    const text = await res.text();
    // The jobs the request asked for (thumbnails) are done before the test reads on, as if the
    // officer looked a moment later: a test that lists the store never meets a job's write half
    // made. A test of the moment before removes what the job made.
    if (isWorkingJobs) await deps.jobs.whenIdle();
    let json: any = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: answerHeaders, json, text };
  }

  async function createUser(
    overrides: Partial<{
      email: string;
      password: string | null;
      passwordHash: string;
      role: Role;
      firstName: string;
      lastName: string;
      isActive: boolean;
    }> = {},
  ) {
    const id = randomUUID();
    const password = overrides.password === undefined ? 'password123' : overrides.password;
    const email = overrides.email ?? `user-${id.slice(0, 8)}@example.com`;
    const stamp = now().toISOString();
    await db
      .insertInto('users')
      .values({
        id,
        email,
        first_name: overrides.firstName ?? 'Test',
        last_name: overrides.lastName ?? 'User',
        role: overrides.role ?? 'USER',
        password_hash: overrides.passwordHash ?? (password ? await hashPassword(password) : null),
        is_active: overrides.isActive !== false,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    return { id, email, password, role: overrides.role ?? 'USER' };
  }

  async function login(email: string, password: string): Promise<{ token: string; refreshToken: string; deviceToken: string; user: User }> {
    const res = await request('POST', '/auth/login', { json: { email, password } });
    if (res.status !== 200) throw new Error(`login failed for ${email}: ${res.status} ${res.text}`);
    return res.json.data;
  }

  /** A signed-in user of the given role, with their tokens. */
  async function signedInUser(role: Role = 'USER', overrides: Parameters<typeof createUser>[0] = {}) {
    const user = await createUser({ ...overrides, role });
    const session = await login(user.email, user.password ?? '');
    return { ...user, token: session.token, refreshToken: session.refreshToken, deviceToken: session.deviceToken };
  }

  async function createCarPark(overrides: Partial<{ name: string; siteCode: string; isActive: boolean; assignTo: string[] }> = {}) {
    const id = randomUUID();
    const stamp = now().toISOString();
    await db
      .insertInto('car_parks')
      .values({
        id,
        name: overrides.name ?? `Car Park ${id.slice(0, 6)}`,
        site_code: overrides.siteCode ?? `S${id.slice(0, 6).toUpperCase()}`,
        address: '1 Test Street',
        postcode: 'AB1 2CD',
        is_active: overrides.isActive !== false,
        consideration_minutes: 5,
        grace_minutes: 10,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    for (const userId of overrides.assignTo ?? []) {
      await db.insertInto('car_park_users').values({ car_park_id: id, user_id: userId, created_at: stamp }).execute();
    }
    return { id };
  }

  /**
   * The text of the newest email of `purpose` to `to` (and with this subject, when given) that has
   * gone: from the outbox's file, or the SMTP test server's mailbox.
   */
  async function latestMailText(to: string, purpose: string, subject?: string): Promise<string> {
    let query = db
      .selectFrom('emails')
      .select(['location', 'subject'])
      .where('to_address', '=', to)
      .where('purpose', '=', purpose)
      .where('status', '!=', 'failed');
    if (subject !== undefined) query = query.where('subject', '=', subject);
    const sent = await query.orderBy('created_at', 'desc').executeTakeFirst();
    if (!sent) throw new Error(`no ${purpose} email to ${to}`);
    if (sent.location) return (await simpleParser(readFileSync(sent.location))).text ?? '';
    const received = options.mailbox?.messages.filter((m) => JSON.stringify(m.to).toLowerCase().includes(to.toLowerCase()));
    const mail = received?.filter((m) => m.subject === sent.subject).at(-1);
    if (!mail) throw new Error(`the ${purpose} email to ${to} went by SMTP: pass the test server as \`mailbox\``);
    return mail.text ?? '';
  }

  /**
   * The motorist's appeal from /charge as the motorist makes it (decision 0032): filed with the
   * charge's token, then confirmed by the link emailed to the form's address. Any answer of the
   * filing but 202 (refused, replayed) is returned as it is; else the confirmation's answer.
   */
  async function fileAndConfirmAppeal(chargeToken: string, form: FormData, key: string = randomUUID()) {
    const filed = await request('POST', '/public/charges/current/appeal', {
      body: form,
      headers: { authorization: `Bearer ${chargeToken}`, [IDEMPOTENCY_KEY_HEADER]: key },
    });
    if (filed.status !== 202) return filed;
    // This charge's email: cells of the authorisation matrix file appeals to one address side by side.
    const pcnId = verifyChargeToken(config.jwtSecret, chargeToken, now());
    const pcn = await db
      .selectFrom('pcns')
      .select('pcn_number')
      .where('id', '=', pcnId ?? '')
      .executeTakeFirstOrThrow();
    const text = await latestMailText(
      String(form.get('email')),
      'appeal-confirmation',
      `Confirm your appeal against parking charge ${pcnTitle(pcn.pcn_number)}`,
    );
    const token = /\/charge\/confirm-appeal\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1];
    if (!token) throw new Error(`no confirmation link in: ${text}`);
    return request('POST', '/public/appeals/confirm', { json: { token } });
  }

  let isHandedOver = false;
  async function close() {
    if (!isHandedOver) {
      await jobs.stop();
      await closeDatabase();
    }
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }

  /**
   * Lets go of the database and the data folder, as a stopped server would, for a server process
   * started on them (support/server-process.ts); `close` still removes them afterwards.
   */
  async function handOver(): Promise<{ dataDir: string }> {
    isHandedOver = true;
    await jobs.stop();
    await closeDatabase();
    return { dataDir };
  }

  return {
    app,
    db: db as Db,
    sqlite,
    deps,
    config,
    clock,
    logLines,
    request,
    createUser,
    login,
    signedInUser,
    createCarPark,
    latestMailText,
    fileAndConfirmAppeal,
    /** With `jobsWaitForTest`: starts working the jobs stored so far and from now on. */
    workJobs: async () => {
      isWorkingJobs = true;
      await jobs.work(handlers);
    },
    handOver,
    close,
  };
}
