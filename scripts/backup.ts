// `npm run backup [-- --out DIR]`: a consistent copy of the database and evidence files while the
// server keeps running. SQLite's online backup API copies a transactionally consistent snapshot
// even while writers commit; then every file that snapshot references is copied beside it.
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../api/src/config.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const config = loadConfig();
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
const outDir = resolve(values.out ?? join(config.dataDir, 'backups', stamp));
mkdirSync(join(outDir, 'uploads'), { recursive: true });

// This copies the embedded SQLite file and the local evidence folder. PostgreSQL and an S3 bucket
// have their own tools (pg_dump, the bucket's versioning or replication); copying one part here
// and not the other would look like a backup and not be one.
if (config.database.engine !== 'sqlite' || config.evidenceStore.kind !== 'disk') {
  console.error(
    "npm run backup copies the embedded SQLite database and DATA_DIR/uploads only. With PostgreSQL or EVIDENCE_STORE=s3://..., back up with pg_dump and the bucket's own versioning or replication.",
  );
  process.exit(1);
}
if (!existsSync(config.databaseFile)) {
  console.error(`No database at ${config.databaseFile}: nothing to back up.`);
  process.exit(1);
}
const source = new SQLite(config.databaseFile, { readonly: true, fileMustExist: true });
source.pragma('busy_timeout = 5000');
const target = join(outDir, 'parkpatrol.sqlite');
await source.backup(target);
source.close();

const snapshot = new SQLite(target, { readonly: true });
const integrity = snapshot.pragma('integrity_check', { simple: true });
// Photos removed under the retention policy have no file to copy (their rows, hashes and facts are in the database).
const files = snapshot.prepare('select file_name as fileName from pcn_images where purged_at is null').all() as Array<{ fileName: string }>;
snapshot.close();

let copied = 0;
const missing: string[] = [];
for (const { fileName } of files) {
  const from = join(config.uploadsDir, fileName);
  // A file can vanish only if its PCN was deleted after the snapshot was taken.
  if (!existsSync(from)) {
    missing.push(fileName);
    continue;
  }
  copyFileSync(from, join(outDir, 'uploads', fileName));
  copied += 1;
}
const manifest = { createdAt: new Date().toISOString(), integrity, files: files.length, copied, missing };
writeFileSync(join(outDir, 'backup.json'), JSON.stringify(manifest, null, 2));
console.log(`Backup written to ${outDir}: database (integrity ${integrity}), ${copied} of ${files.length} evidence files.`);
if (missing.length > 0) console.log(`${missing.length} files were deleted after the snapshot (their PCNs were deleted meanwhile).`);
if (integrity !== 'ok') process.exit(1);
