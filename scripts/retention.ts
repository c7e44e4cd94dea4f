/**
 * `npm run retention [-- --dry-run]`: removes the photo files of PCNs closed (PAID, CANCELLED,
 * REJECTED) longer than EVIDENCE_RETENTION_DAYS, as the server does daily. Rows, hashes, capture
 * facts and the audit trail stay; each PCN gets an audit entry. With --dry-run it only lists
 * what would go. Safe to run while the server runs, and again: a second run finds nothing.
 */
import { parseArgs } from 'node:util';
import { loadConfig } from '../api/src/config.ts';
import { withMaintenanceLock } from '../api/src/db/dialect.ts';
import { connectDatabase, migrateToLatest } from '../api/src/db/database.ts';
import { createLogger } from '../api/src/services/logger.ts';
import { createConfiguredEvidenceStore } from '../api/src/services/evidence-store-s3.ts';
import { EVIDENCE_PURGE_LOCK, purgeExpiredEvidence, type EvidencePurgeResult } from '../api/src/services/purge-expired-evidence.ts';

const USAGE = 'Usage: npm run retention [-- --dry-run]';

let isDryRun = false;
try {
  const { values } = parseArgs({ options: { 'dry-run': { type: 'boolean' }, help: { type: 'boolean' } }, strict: true });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  isDryRun = values['dry-run'] ?? false;
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(1);
}

const config = loadConfig();
const { db, close } = connectDatabase(config.database);
try {
  await migrateToLatest(db);
  const deps = {
    db,
    evidence: createConfiguredEvidenceStore(config),
    retentionDays: config.evidenceRetentionDays,
    now: () => new Date(),
    logger: createLogger(),
  };
  // A dry run changes nothing, so it need not wait its turn; a real one never runs beside the
  // server's daily run (or another of these) on the same PostgreSQL database.
  const outcome = isDryRun
    ? { isSkipped: false as const, result: await purgeExpiredEvidence(deps, { isDryRun }) }
    : await withMaintenanceLock(db, EVIDENCE_PURGE_LOCK, () => purgeExpiredEvidence(deps));
  if (outcome.isSkipped) {
    process.stdout.write('Another process is removing expired evidence right now, so this run did nothing; it finishes the work.\n');
  } else {
    printResult(outcome.result);
  }
} finally {
  await close();
}

function printResult(result: EvidencePurgeResult): void {
  const photoCount = result.pcns.reduce((sum, pcn) => sum + pcn.photoCount, 0);
  const verb = isDryRun ? 'Would remove' : 'Removed';
  process.stdout.write(
    `Retention ${config.evidenceRetentionDays} days: PCNs closed (paid, cancelled or rejected) on or before ${result.cutoff} lose their photo files.\n`,
  );
  for (const pcn of result.pcns) {
    process.stdout.write(
      `  ${verb} ${pcn.photoCount} photo${pcn.photoCount === 1 ? '' : 's'} of PCN-${pcn.pcnNumber} (${pcn.status}, closed ${pcn.closedAt})\n`,
    );
  }
  process.stdout.write(
    result.pcns.length === 0
      ? 'Nothing to remove.\n'
      : `${verb} ${photoCount} photo${photoCount === 1 ? '' : 's'} of ${result.pcns.length} PCN${result.pcns.length === 1 ? '' : 's'}${isDryRun ? ' (dry run: nothing was deleted)' : ''}.\n`,
  );
}
