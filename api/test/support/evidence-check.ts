import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { listUploadsFolder } from './upload-files.ts';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';

export type EvidenceReport = {
  pcns: number;
  images: number;
  /** Rows whose file is missing or differs from the recorded size or sha256. */
  brokenRows: string[];
  /** Final-named files in uploads/ that no pcn_images or sent_documents row points at. */
  orphanFiles: string[];
  /** Files still carrying the temporary name of a write that never finished. */
  tempFiles: string[];
  integrity: string;
};

/** Reads the database file and the upload folder of a DATA_DIR and compares them both ways. */
export function checkEvidence(dataDir: string): EvidenceReport {
  const uploadsDir = join(dataDir, 'uploads');
  const sqlite = new SQLite(join(dataDir, 'parkpatrol.sqlite'), { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    type StoredRow = { fileName: string; size: number; sha256: string };
    const photos = sqlite.prepare('select file_name as fileName, size, sha256 from pcn_images').all() as StoredRow[];
    // The documents sent are kept beside the photos (decision 0025), and checked the same way.
    const documents = sqlite
      .prepare('select file_name as fileName, size_bytes as size, sha256 from sent_documents where purged_at is null')
      .all() as StoredRow[];
    const rows = [...photos, ...documents];
    const pcns = sqlite.prepare('select count(*) from pcns').pluck().get() as number;
    const integrity = sqlite.pragma('integrity_check', { simple: true }) as string;
    const brokenRows: string[] = [];
    for (const row of rows) {
      const path = join(uploadsDir, row.fileName);
      if (!existsSync(path)) {
        brokenRows.push(`${row.fileName}: missing`);
        continue;
      }
      const bytes = readFileSync(path);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      if (statSync(path).size !== row.size || sha256 !== row.sha256) brokenRows.push(`${row.fileName}: size or sha256 differs`);
    }
    const referenced = new Set(rows.map((r) => r.fileName));
    const files = listUploadsFolder(uploadsDir);
    const tempFiles = files.filter((f) => f.startsWith('.tmp-'));
    const orphanFiles = files.filter((f) => !f.startsWith('.tmp-') && !referenced.has(f));
    return { pcns, images: photos.length, brokenRows, orphanFiles, tempFiles, integrity };
  } finally {
    sqlite.close();
  }
}

/**
 * Waits until the job queue in a DATA_DIR's SQLite file (the server's, decision 0046) has no job
 * waiting to run or running: the thumbnails of every upload so far are written, and no job's
 * write is half made.
 */
export async function whenJobsDone(dataDir: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (let waiting = countWaitingJobs(dataDir); waiting > 0; waiting = countWaitingJobs(dataDir)) {
    if (Date.now() > deadline) throw new Error(`${waiting} jobs still waiting after ${ms} ms`);
    await sleep(100);
  }
}

/** Jobs waiting to run or running in a DATA_DIR's SQLite queue. */
export function countWaitingJobs(dataDir: string): number {
  const sqlite = new SQLite(join(dataDir, 'parkpatrol.sqlite'), { fileMustExist: true, readonly: true });
  try {
    sqlite.pragma('busy_timeout = 5000');
    const hasQueue = sqlite.prepare("select count(*) from sqlite_master where name = 'job_queue'").pluck().get() as number;
    return hasQueue ? (sqlite.prepare("select count(*) from job_queue where state in ('created', 'active')").pluck().get() as number) : 0;
  } finally {
    sqlite.close();
  }
}
