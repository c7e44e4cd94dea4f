import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_APPEAL_RESPONSE_DAYS,
  DEFAULT_EVIDENCE_RETENTION_DAYS,
  DEFAULT_PRODUCT_NAME,
  productNameProblem,
} from '@parkpatrol/shared';
import type { DatabaseTarget } from './db/database.ts';
import { CONNECTION_LIMITS } from './http/connection-limits.ts';
import { passwordHashOptions } from './auth/passwords.ts';

export type Config = {
  port: number;
  dataDir: string;
  /** The embedded SQLite file unless DATABASE_URL names a PostgreSQL server. */
  database: DatabaseTarget;
  /** Where the SQLite file is (or would be): backup and the move to PostgreSQL read it. */
  databaseFile: string;
  uploadsDir: string;
  outboxDir: string;
  jwtSecret: string;
  appUrl: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  productName: string;
  isProduction: boolean;
  webDistDir: string | undefined;
  /** Behind a reverse proxy: the proxy's X-Forwarded-For names the client (rate limits). */
  trustProxy: boolean;
  /**
   * Connections one peer address (an IPv6 /64) may hold (CONNECTIONS_PER_ADDRESS); null behind
   * TRUST_PROXY unless set, since every socket there is the proxy's (http/connection-limits.ts).
   */
  connectionsPerAddress: number | null;
  /** Days after a PCN is closed (PAID, CANCELLED, REJECTED) before its photo files are removed. */
  evidenceRetentionDays: number;
  /**
   * Where evidence photos are kept: `uploadsDir` (the default), or an S3-compatible bucket when
   * EVIDENCE_STORE=s3://BUCKET[/PREFIX]. The SDK reads AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY
   * and AWS_REGION itself; `endpoint` is AWS_ENDPOINT_URL_S3 (a non-AWS server), if set.
   */
  evidenceStore: EvidenceStoreTarget;
  /** Seconds a rotated refresh token still gets its rotation's answer (auth/refresh-tokens.ts). */
  refreshReuseSeconds: number;
  /** The bearer token /metrics asks for; unset, there is no /metrics route. */
  metricsToken: string | undefined;
  /** Days to answer an appeal, from receipt: its respond-by date (APPEAL_RESPONSE_DAYS). */
  appealResponseDays: number;
  /**
   * Card payments through Stripe: both keys, or no card payments (services/card-processor.ts).
   * `apiBase` (STRIPE_API_BASE) points the library at another server, such as the tests' fake.
   */
  stripe: { secretKey: string | undefined; webhookSecret: string | undefined; apiBase: string | undefined };
};

export type EvidenceStoreTarget = { kind: 'disk' } | { kind: 's3'; bucket: string; prefix: string; endpoint: string | undefined };

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional(),
  APP_URL: z.url('APP_URL must be a full URL such as https://tickets.example.com').optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'SMTP_URL must start with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  PRODUCT_NAME: z
    .string()
    .superRefine((name, ctx) => {
      const problem = productNameProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .optional(),
  NODE_ENV: z.string().optional(),
  WEB_DIST_DIR: z.string().optional(),
  REFRESH_REUSE_SECONDS: z.coerce
    .number({ error: 'REFRESH_REUSE_SECONDS must be a whole number of seconds from 0 to 60' })
    .int('REFRESH_REUSE_SECONDS must be a whole number of seconds from 0 to 60')
    .min(0, 'REFRESH_REUSE_SECONDS must be a whole number of seconds from 0 to 60')
    .max(60, 'REFRESH_REUSE_SECONDS must be a whole number of seconds from 0 to 60')
    .default(30),
  METRICS_TOKEN: z.string().min(32, 'METRICS_TOKEN must be at least 32 characters').optional(),
  TRUST_PROXY: z.enum(['true', 'false', '1', '0'], { error: 'TRUST_PROXY must be true or false' }).default('false'),
  CONNECTIONS_PER_ADDRESS: z
    .string()
    .regex(/^\s*\d+\s*$/, `CONNECTIONS_PER_ADDRESS must be a whole number from 1 to ${CONNECTION_LIMITS.max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(1, `CONNECTIONS_PER_ADDRESS must be between 1 and ${CONNECTION_LIMITS.max}`)
        .max(CONNECTION_LIMITS.max, `CONNECTIONS_PER_ADDRESS must be between 1 and ${CONNECTION_LIMITS.max}`),
    )
    .optional(),
  // 0 is allowed (photos go at the next run after a notice closes), so an empty or mistyped value
  // must not coerce to 0 the way Number('') does: digits only, or the default when unset.
  APPEAL_RESPONSE_DAYS: z
    .string()
    .regex(/^\s*\d+\s*$/, 'APPEAL_RESPONSE_DAYS must be a whole number of days (1 to 90)')
    .transform(Number)
    .pipe(z.number().min(1, 'APPEAL_RESPONSE_DAYS must be between 1 and 90').max(90, 'APPEAL_RESPONSE_DAYS must be between 1 and 90'))
    .default(DEFAULT_APPEAL_RESPONSE_DAYS),
  EVIDENCE_RETENTION_DAYS: z
    .string()
    .regex(/^\s*\d+\s*$/, 'EVIDENCE_RETENTION_DAYS must be a whole number of days (0 to 3650)')
    .transform(Number)
    .pipe(z.number().max(3650, 'EVIDENCE_RETENTION_DAYS must be between 0 and 3650'))
    .default(DEFAULT_EVIDENCE_RETENTION_DAYS),
  EVIDENCE_STORE: z.string().optional(),
  AWS_ENDPOINT_URL_S3: z.string().optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_\S+$/, 'STRIPE_SECRET_KEY must be a Stripe secret key (sk_live_…, sk_test_… or a restricted rk_… key)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\S+$/, "STRIPE_WEBHOOK_SECRET must be the webhook endpoint's signing secret (whsec_…)")
    .optional(),
  STRIPE_API_BASE: z
    .url({ protocol: /^https?$/, error: 'STRIPE_API_BASE must be an http:// or https:// URL such as https://api.stripe.com' })
    .optional(),
});

/** Reads and checks the environment once at start; a bad variable stops the server with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  const isPostgres = e.DATABASE_URL !== undefined && /^postgres(ql)?:\/\//.test(e.DATABASE_URL);
  if (e.DATABASE_URL && !isPostgres && !e.DATABASE_URL.startsWith('file:') && !e.DATABASE_URL.endsWith('.sqlite')) {
    throw new Error('Invalid configuration: DATABASE_URL: use file:path (SQLite) or postgres://user:password@host:port/database');
  }
  // Several processes share one PostgreSQL: each must sign and check tokens with the same key,
  // which a secret generated into one machine's DATA_DIR cannot be.
  if (isPostgres && !e.JWT_SECRET) {
    throw new Error('Invalid configuration: JWT_SECRET: required with a PostgreSQL DATABASE_URL (every API process must sign alike)');
  }
  const evidenceStore = parseEvidenceStore(e.EVIDENCE_STORE, e.AWS_ENDPOINT_URL_S3);
  // Checked here so a wrong value stops the start, not the first sign-in.
  passwordHashOptions(env);
  const dataDir = resolve(e.DATA_DIR);
  // The folder holds the database, the mail outbox (live reset links) and the secret.
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const databaseFile = e.DATABASE_URL && !isPostgres ? resolve(e.DATABASE_URL.replace(/^file:/, '')) : join(dataDir, 'parkpatrol.sqlite');
  const port = e.PORT;
  const productName = e.PRODUCT_NAME ?? DEFAULT_PRODUCT_NAME;
  const trustProxy = e.TRUST_PROXY === 'true' || e.TRUST_PROXY === '1';
  return {
    port,
    dataDir,
    database: isPostgres ? { engine: 'postgres', url: e.DATABASE_URL! } : { engine: 'sqlite', file: databaseFile },
    databaseFile,
    uploadsDir: join(dataDir, 'uploads'),
    outboxDir: join(dataDir, 'outbox'),
    jwtSecret: e.JWT_SECRET ?? loadOrCreateSecret(dataDir),
    appUrl: (e.APP_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `${productName} <no-reply@localhost>`,
    productName,
    isProduction: e.NODE_ENV === 'production',
    webDistDir: e.WEB_DIST_DIR,
    trustProxy,
    connectionsPerAddress: e.CONNECTIONS_PER_ADDRESS ?? (trustProxy ? null : CONNECTION_LIMITS.perAddress),
    evidenceRetentionDays: e.EVIDENCE_RETENTION_DAYS,
    evidenceStore,
    refreshReuseSeconds: e.REFRESH_REUSE_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    appealResponseDays: e.APPEAL_RESPONSE_DAYS,
    stripe: { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET, apiBase: e.STRIPE_API_BASE },
  };
}

// S3's rules for bucket names (3 to 63 lower-case letters, digits, dots and hyphens) and, for
// the prefix, path segments of the characters S3 calls safe for keys.
const S3_STORE_PATTERN = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/;
const S3_PREFIX_SEGMENT_PATTERN = /^[A-Za-z0-9!_.*'()-]+$/;

/** EVIDENCE_STORE: unset keeps photos in DATA_DIR/uploads; s3://BUCKET[/PREFIX] puts them in a bucket. */
function parseEvidenceStore(value: string | undefined, endpoint: string | undefined): EvidenceStoreTarget {
  if (value === undefined) return { kind: 'disk' };
  const problem = (detail: string) =>
    new Error(
      `Invalid configuration: EVIDENCE_STORE: ${detail}; use s3://BUCKET or s3://BUCKET/PREFIX, or leave it unset to keep photos in DATA_DIR/uploads`,
    );
  const match = S3_STORE_PATTERN.exec(value.trim());
  if (!match) throw problem(`${JSON.stringify(value)} is not an s3:// address with a valid bucket name`);
  const prefix = (match[2] ?? '').replace(/\/+$/, '');
  const segments = prefix === '' ? [] : prefix.split('/');
  if (segments.some((segment) => !S3_PREFIX_SEGMENT_PATTERN.test(segment) || segment === '.' || segment === '..')) {
    throw problem(`the prefix ${JSON.stringify(prefix)} may hold only letters, digits and !_.*'()- between single slashes`);
  }
  if (endpoint !== undefined && endpoint !== '' && !URL.canParse(endpoint)) {
    throw new Error('Invalid configuration: AWS_ENDPOINT_URL_S3 must be a full URL such as https://s3.example.com');
  }
  return { kind: 's3', bucket: match[1]!, prefix, endpoint: endpoint || undefined };
}

/** Shorter than this, an HS256 key can be guessed offline from one token. */
export const MIN_SECRET_BYTES = 32;

/**
 * A secret generated once and kept in DATA_DIR, so tokens survive a restart without setup. A
 * file someone truncated or filled by hand with a short value stops the start, naming the
 * file, rather than signing tokens with a guessable (or empty) key.
 */
function loadOrCreateSecret(dataDir: string): string {
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (Buffer.byteLength(secret) < MIN_SECRET_BYTES) {
      throw new Error(
        `Invalid configuration: ${file} holds ${secret.length === 0 ? 'no secret' : 'a secret shorter than 32 bytes'}. ` +
          'Delete the file to have a new one generated (everyone signs in again), or set JWT_SECRET.',
      );
    }
    return secret;
  }
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
