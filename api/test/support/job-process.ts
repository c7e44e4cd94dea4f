/**
 * A process that works jobs, as an API process or `npm run worker` does, over the database given
 * as JSON in argv[2], with a thumbnails handler of the test's: it writes `started <files>` and then,
 * with argv[3] 'hang', never finishes (the test kills it there); otherwise it writes `done <files>`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { connectDatabase, type DatabaseTarget } from '../../src/db/database.ts';
import { connectJobQueue } from '../../src/jobs/connect-job-queue.ts';
import { silentLogger } from '../../src/services/logger.ts';
import { IDLE_JOB_HANDLERS } from './idle-job-handlers.ts';

const target = JSON.parse(process.argv[2]!) as DatabaseTarget;
const hangs = process.argv[3] === 'hang';
const { db } = connectDatabase(target);
const queue = await connectJobQueue(db, target, silentLogger);
await queue.work({
  ...IDLE_JOB_HANDLERS,
  thumbnails: async ({ fileNames }) => {
    process.stdout.write(`started ${fileNames.join(',')}\n`);
    if (hangs) await new Promise(() => undefined);
    await sleep(20);
    process.stdout.write(`done ${fileNames.join(',')}\n`);
  },
});
// Kept alive until the test ends it: a SQLite queue's timers alone would let the process exit.
setInterval(() => undefined, 60_000);
process.stdout.write('ready\n');
