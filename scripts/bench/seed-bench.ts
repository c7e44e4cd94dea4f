// `npm run seed:bench`: a database with 100,000 PCNs for the API benchmarks, in DATA_DIR
// (default data/bench). Rows go straight into SQLite in one transaction: this measures reads,
// not 100,000 uploads.
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { OFFENCE_TYPES, PCN_STATUSES, formatPcnNumber } from '@parkpatrol/shared';
import { migrateToLatest, openDatabase } from '../../api/src/db/database.ts';
import { seedDemoData } from '../../api/src/db/seed.ts';
import { fillMissingKeeperPostingDays } from '../../api/src/repositories/keeper-posting-days.ts';

export const BENCH_PCN_COUNT = Number(process.env.BENCH_PCNS ?? 100_000);
/** What the API benchmarks write on the notices they file themselves; the seed's own never say it. */
export const BENCH_FILED_DESCRIPTION = 'Benchmark';

export async function seedBenchDatabase(dataDir: string): Promise<{ file: string; pcns: number }> {
  mkdirSync(dataDir, { recursive: true });
  const file = resolve(dataDir, 'parkpatrol.sqlite');
  const { db, sqlite } = openDatabase(file);
  await migrateToLatest(db);
  await seedDemoData(db);
  // The notices earlier runs filed (a page's worth and the upload row's) would pile up run after
  // run, and the search row, which finds them all, would slow with them: every run starts from
  // the seed. Their photos, images and search entries go with them (cascades and triggers).
  sqlite.prepare('delete from pcns where description = ?').run(BENCH_FILED_DESCRIPTION);
  const existing = (sqlite.prepare('select count(*) as n from pcns').get() as { n: number }).n;
  if (existing >= BENCH_PCN_COUNT) {
    await db.destroy();
    return { file, pcns: existing };
  }
  const users = sqlite.prepare("select id from users where role = 'USER' order by email").all() as Array<{ id: string }>;
  const carParks = sqlite.prepare('select id from car_parks order by site_code').all() as Array<{ id: string }>;
  const maxSequence = (sqlite.prepare('select coalesce(max(sequence), 0) as n from pcns').get() as { n: number }).n;
  const insert = sqlite.prepare(`insert into pcns (id, sequence, pcn_number, vehicle_registration, car_park_id,
    offence_type, description, location, status, admin_notes, observed_at, created_by, idempotency_key,
    request_hash, created_at, updated_at)
    values (?, ?, ?, ?, ?, ?, ?, ?, ?, null, ?, ?, ?, null, ?, ?)`);
  const letters = 'ABCDEFGHJKLMNPRSTUVWXYZ';
  const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;
  const start = Date.now() - 365 * 24 * 3600 * 1000;
  const fill = sqlite.transaction((from: number, to: number) => {
    for (let i = from; i < to; i += 1) {
      const sequence = maxSequence + i + 1;
      const plate = `${pick([...letters], i)}${pick([...letters], i * 7)}${String(10 + (i % 90))}${pick([...letters], i * 3)}${pick([...letters], i * 5)}${pick([...letters], i * 11)}`;
      const created = new Date(start + Math.floor((i / BENCH_PCN_COUNT) * 365 * 24 * 3600 * 1000)).toISOString();
      insert.run(
        randomUUID(),
        sequence,
        formatPcnNumber(sequence),
        plate,
        pick(carParks, i).id,
        pick(OFFENCE_TYPES, i),
        'Benchmark notice',
        `Bay ${i % 400}`,
        pick(PCN_STATUSES, i * 13),
        created,
        pick(users, i).id,
        randomUUID(),
        created,
        created,
      );
    }
  });
  fill(existing, BENCH_PCN_COUNT);
  // As the API does at start: each notice's last posting day, which the deadline queue orders by.
  await fillMissingKeeperPostingDays(db);
  sqlite.pragma('optimize');
  await db.destroy();
  return { file, pcns: BENCH_PCN_COUNT };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dataDir = resolve(process.env.DATA_DIR ?? 'data/bench');
  const started = Date.now();
  const result = await seedBenchDatabase(dataDir);
  console.log(`${result.pcns} PCNs in ${result.file} (${Date.now() - started} ms)`);
}
