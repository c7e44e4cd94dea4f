import { readFile, rm, writeFile } from 'node:fs/promises';
import { stringify } from 'csv-stringify/sync';
import {
  DEBT_RECOVERY_CHARGE_COLUMNS,
  keeperAddressBlock,
  pcnTitle,
  type DebtRecoveryEligibleCharge,
  type Keeper,
} from '@parkpatrol/shared';
import type { AppDeps } from '../app-env.ts';
import { AppError } from '../http/app-error.ts';
import type { PcnRow } from '../repositories/pcn-rows.ts';
import { findSentDocuments } from '../repositories/sent-documents.ts';
import { buildEvidencePack } from '../services/build-evidence-pack.ts';
import { sha256Hex } from '../services/crypto-tokens.ts';
import { neutraliseIndentedFormula } from '../services/csv-export.ts';
import { newSpoolPath } from '../services/evidence-storage.ts';
import { writeZipFile } from '../services/zip-file.ts';

/** A charge checked and ready to go, with what the agency's CSV says of it. */
export type BatchCharge = { row: PcnRow; keeper: Keeper; chargePence: number; charge: DebtRecoveryEligibleCharge };

type Deps = Pick<AppDeps, 'db' | 'evidence' | 'config'>;

/** A file of the batch: its size and SHA-256 known before the ZIP is written (the manifest comes second), its bytes read again then. */
type BatchFile = { path: string; size: number; sha256: string; read: () => Promise<Uint8Array> };

/** One CSV as a spreadsheet opens it safely: a byte order mark, quoting, formulas neutralised (OWASP CSV injection). */
function csvBytes(columns: readonly string[], records: readonly string[][]): Uint8Array {
  const text = stringify(
    records.map((record) => record.map(neutraliseIndentedFormula)),
    { bom: true, header: true, columns: [...columns], escape_formulas: true, record_delimiter: 'windows' },
  );
  return new TextEncoder().encode(text);
}

/** A name not yet used in the folder: two letters of one kind made the same day would share one. */
function uniqueName(taken: Set<string>, name: string): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = name.replace(/(\.[a-z]+)$/, `-${n}$1`);
  taken.add(candidate);
  return candidate;
}

function inMemory(path: string, bytes: Uint8Array): BatchFile {
  return { path, size: bytes.byteLength, sha256: sha256Hex(bytes), read: async () => bytes };
}

/**
 * The batch as one ZIP written to a temporary file, its entries in a fixed order: charges.csv,
 * manifest.csv, then one folder per charge (by reference) holding its documents as sent (oldest
 * first, the bytes as stored, checked against their SHA-256 when listed and again when written)
 * and its evidence pack drawn now. The manifest gives each other file's path, size and SHA-256,
 * so the agency (and a court) can tell a file is the one we sent. Only one pack or document is
 * in memory at a time: each pack waits in a temporary file of its own until the ZIP takes it.
 */
export async function writeBatchFile(
  deps: Deps,
  charges: readonly BatchCharge[],
  now: Date,
  onPacked: (packed: number) => Promise<void>,
): Promise<{ tempPath: string; size: number; sha256: string }> {
  const packPaths: string[] = [];
  const zipPath = newSpoolPath(deps.config.uploadsDir);
  try {
    const files: BatchFile[] = [];
    const chargeRecords: string[][] = [];
    for (const [index, { row, keeper, chargePence, charge }] of charges.entries()) {
      const folder = pcnTitle(row.pcn_number);
      const taken = new Set<string>();
      for (const document of await findSentDocuments(deps.db, row.id)) {
        if (document.purgedAt !== null) continue;
        const { file_name: fileName } = await deps.db
          .selectFrom('sent_documents')
          .select('file_name')
          .where('id', '=', document.id)
          .executeTakeFirstOrThrow();
        // What goes to the agency is what was sent, or nothing goes.
        const readAsSent = async () => {
          const bytes = await deps.evidence.read(fileName);
          if (!bytes || sha256Hex(bytes) !== document.sha256) {
            throw new AppError(
              'INTERNAL',
              `A document kept for ${folder} is missing or no longer matches its SHA-256: nothing was handed over`,
            );
          }
          return bytes;
        };
        const { byteLength: size } = await readAsSent();
        files.push({ path: `${folder}/${uniqueName(taken, document.fileName)}`, size, sha256: document.sha256, read: readAsSent });
      }
      const pack = await buildEvidencePack({ db: deps.db, config: deps.config, evidence: deps.evidence, now: () => now }, row.id);
      const packPath = newSpoolPath(deps.config.uploadsDir);
      packPaths.push(packPath);
      await writeFile(packPath, pack.bytes, { flag: 'wx' });
      files.push({
        path: `${folder}/${uniqueName(taken, pack.fileName)}`,
        size: pack.bytes.byteLength,
        sha256: sha256Hex(pack.bytes),
        read: () => readFile(packPath),
      });
      const carPark = await deps.db
        .selectFrom('car_parks')
        .select(['address', 'postcode'])
        .where('id', '=', row.car_park_id)
        .executeTakeFirst();
      const person = [keeper.title, keeper.firstNames, keeper.lastName]
        .map((part) => part.trim())
        .filter(Boolean)
        .join(' ');
      const address = keeperAddressBlock({ ...keeper, title: '', firstNames: '', lastName: '', companyName: '', postcode: '' });
      chargeRecords.push([
        folder,
        row.vehicle_registration,
        charge.issuedOn,
        charge.carParkName,
        [carPark?.address ?? '', carPark?.postcode ?? ''].filter(Boolean).join(', '),
        person,
        keeper.companyName.trim(),
        address.join(', '),
        keeper.postcode.trim(),
        String(chargePence),
        String(charge.paidPence),
        String(charge.amountDuePence),
        charge.debtRecoveryFeePence === null ? '' : String(charge.debtRecoveryFeePence),
        charge.letterBeforeClaimPostedOn,
        `${folder}/`,
      ]);
      await onPacked(index + 1);
    }
    const chargesCsv = inMemory('charges.csv', csvBytes(DEBT_RECOVERY_CHARGE_COLUMNS, chargeRecords));
    const manifest = inMemory(
      'manifest.csv',
      csvBytes(
        ['path', 'size_bytes', 'sha256'],
        [chargesCsv, ...files].map((file) => [file.path, String(file.size), file.sha256]),
      ),
    );
    const entries = [chargesCsv, manifest, ...files].map((file) => ({
      path: file.path,
      isCompressed: !file.path.endsWith('.pdf'),
      read: file.read,
    }));
    return { tempPath: zipPath, ...(await writeZipFile(zipPath, entries, now)) };
  } catch (error) {
    await rm(zipPath, { force: true });
    throw error;
  } finally {
    await Promise.all(packPaths.map((path) => rm(path, { force: true })));
  }
}
