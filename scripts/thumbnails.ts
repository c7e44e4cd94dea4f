/**
 * `npm run thumbnails`: gives every photo still on file its thumbnail (about 320 px, WebP), for
 * photos stored before thumbnails existed, or whose job failed for good. Safe beside the running
 * server and safe to run again: a second run makes nothing. Until then a photo is shown as itself.
 */
import { loadConfig } from '../api/src/config.ts';
import { connectDatabase, migrateToLatest } from '../api/src/db/database.ts';
import { createConfiguredEvidenceStore } from '../api/src/services/evidence-store-s3.ts';
import { createLogger } from '../api/src/services/logger.ts';
import { makeMissingThumbnails } from '../api/src/workflows/make-missing-thumbnails.ts';

const config = loadConfig();
const { db, close } = connectDatabase(config.database);
try {
  await migrateToLatest(db);
  const started = Date.now();
  const result = await makeMissingThumbnails({ db, evidence: createConfiguredEvidenceStore(config), logger: createLogger() });
  process.stdout.write(
    `Looked at ${result.checked} photo${result.checked === 1 ? '' : 's'} in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `made ${result.made} thumbnail${result.made === 1 ? '' : 's'}` +
      (result.cannotMake > 0 ? `; ${result.cannotMake} cannot be decoded here (HEIC) and show their original` : '') +
      (result.missingOriginal > 0 ? `; ${result.missingOriginal} rows name a file that is missing (see the log)` : '') +
      '.\n',
  );
} finally {
  await close();
}
