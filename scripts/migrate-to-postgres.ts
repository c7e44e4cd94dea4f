/**
 * `DATABASE_URL=postgres://... [EVIDENCE_STORE=s3://BUCKET[/PREFIX]] npm run migrate-to-postgres
 * [-- --from-data-dir DIR] [--allow-missing-photos]`: moves an installation from the SQLite file
 * and uploads folder of DATA_DIR (or DIR) into an empty PostgreSQL database and, with
 * EVIDENCE_STORE, the photos into the bucket. All or nothing; stop the server first. Steps and
 * what to check: docs/operations.md.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../api/src/config.ts';
import {
  MigrationRefusedError,
  migrateToPostgres,
  redactDatabaseUrl,
  type MigrationSummary,
} from '../api/src/tools/migrate-to-postgres.ts';

const USAGE =
  'Usage: DATABASE_URL=postgres://user:password@host:port/database [EVIDENCE_STORE=s3://BUCKET[/PREFIX]] npm run migrate-to-postgres [-- --from-data-dir DIR] [--allow-missing-photos]';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

let values;
try {
  ({ values } = parseArgs({
    options: { 'from-data-dir': { type: 'string' }, 'allow-missing-photos': { type: 'boolean' }, help: { type: 'boolean' } },
    strict: true,
  }));
} catch (error) {
  fail(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) fail(`DATABASE_URL is not set: name the empty PostgreSQL database to move into.\n${USAGE}`);
const dataDir = resolve(values['from-data-dir'] ?? process.env.DATA_DIR ?? './data');
const databaseFile = join(dataDir, 'parkpatrol.sqlite');
// loadConfig makes DATA_DIR when it is missing: look first, so a mistyped folder is reported, not created.
if (!existsSync(databaseFile))
  fail(`No SQLite database at ${databaseFile}: point --from-data-dir (or DATA_DIR) at the folder that holds parkpatrol.sqlite.`);
// The server's own checks of EVIDENCE_STORE and AWS_ENDPOINT_URL_S3; DATABASE_URL is the target here, not the server's database.
const config = loadConfig({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: undefined });
const store = config.evidenceStore;

const say = (line: string) => process.stdout.write(`${line}\n`);
say(
  `Moving ${databaseFile} and ${config.uploadsDir} to ${redactDatabaseUrl(databaseUrl)}${store.kind === 's3' ? ` and ${process.env.EVIDENCE_STORE}` : ''}.`,
);
if (store.kind === 'disk') say('EVIDENCE_STORE is unset: only the database moves; the photos stay in the uploads folder.');

let summary: MigrationSummary;
try {
  summary = await migrateToPostgres({
    fromDataDir: dataDir,
    databaseUrl,
    evidence:
      store.kind === 's3'
        ? { bucket: store.bucket, prefix: store.prefix, ...(store.endpoint !== undefined && { endpoint: store.endpoint }) }
        : null,
    allowMissingPhotos: values['allow-missing-photos'] ?? false,
    log: say,
  });
} catch (error) {
  if (error instanceof MigrationRefusedError) fail(error.message);
  fail(`The move failed and nothing was committed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
}

const { photos } = summary;
const megabytes = (photos.bytes / 1024 / 1024).toFixed(1);
say('');
say(`Done in ${(summary.elapsedMs / 1000).toFixed(1)} s. Rows copied:`);
for (const { table, rows } of summary.tables) say(`  ${table.padEnd(24)} ${rows}`);
say(
  summary.isEvidenceMoved
    ? `Photos: ${photos.verified} of ${photos.expected} in ${summary.evidenceLocation}, each read back and matching its SHA-256 (${photos.copied} copied now, ${megabytes} MB).`
    : `Photos: ${photos.verified} of ${photos.expected} checked against their SHA-256 in ${summary.evidenceLocation} (${megabytes} MB), left where they are.`,
);
if (photos.purged > 0)
  say(`  ${photos.purged} photos were removed earlier under the retention policy: their rows moved, they have no file.`);
if (photos.missing.length > 0)
  say(`  ${photos.missing.length} photos had no file and were moved as rows only (--allow-missing-photos): ${photos.missing.join(', ')}`);

say('');
say('Start the server (every API process) with:');
say(`  DATABASE_URL=${redactDatabaseUrl(databaseUrl)}   (with its real password)`);
if (summary.isEvidenceMoved) {
  say(
    `  EVIDENCE_STORE=${process.env.EVIDENCE_STORE}   and the same AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION${store.kind === 's3' && store.endpoint ? ', AWS_ENDPOINT_URL_S3' : ''} as here`,
  );
} else {
  say(`  DATA_DIR=${dataDir}   (EVIDENCE_STORE unset: the photos stay in ${config.uploadsDir}; run one API process on it)`);
}
say(
  process.env.JWT_SECRET
    ? '  JWT_SECRET   the value set here; required with PostgreSQL and identical on every process'
    : `  JWT_SECRET="$(cat ${join(dataDir, 'jwt-secret')})"   required with PostgreSQL and identical on every process; this value keeps everyone signed in`,
);
say('  TRUST_PROXY=true   behind a reverse proxy');
say(`Keep ${dataDir} until you are satisfied: the server no longer reads parkpatrol.sqlite.`);
