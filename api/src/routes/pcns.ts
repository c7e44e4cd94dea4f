import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import {
  changePcnStatusInputSchema,
  ERROR_MESSAGES,
  IDEMPOTENCY_KEY_HEADER,
  isAdminRole,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_PCN,
  PCN_MULTIPART_FIELDS,
  pcnFieldsSchema,
  pcnListQuerySchema,
  SERVER_MESSAGES,
  updatePcnFieldsSchema,
  VALIDATION_MESSAGES,
  type PcnStatus,
} from '@parkpatrol/shared';
import { z } from 'zod';
import type { AppDeps, AppEnv, AuthUser } from '../app-env.ts';
import { requireAuth } from '../auth/middleware.ts';
import type { Db } from '../db/database.ts';
import {
  decidePcnChange,
  decidePcnSubmit,
  decideStatusChange,
  fitsImageLimit,
  hashPcnRequest,
  canViewPcn,
  type PcnDecision,
} from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { ok } from '../http/respond.ts';
import { parseWith, readJson, readQuery } from '../http/validation.ts';
import {
  countPcnImages,
  countPcnsByStatus,
  deletePcn,
  deletePcnImages,
  findCarParkForFiling,
  findPcnImages,
  findPcnPage,
  findPcnRowById,
  findPcnRowByIdempotencyKey,
  findStatusHistory,
  insertPcn,
  insertPcnImages,
  insertStatusChange,
  toPcn,
  updatePcnFields,
  updatePcnStatus,
  type PcnRow,
} from '../repositories/pcns.ts';
import { recordActivity } from '../services/activities.ts';
import { sha256Hex } from '../services/crypto-tokens.ts';
import { deleteEvidenceFiles, writeEvidenceFiles } from '../services/evidence-storage.ts';
import { detectImageType, type SniffedImage } from '../services/image-sniffing.ts';
import { createSignedUploadUrl } from '../services/upload-urls.ts';

/**
 * app.ts leaves POST/PUT under /api/pcns without its 1 MB JSON limit; this limit takes its
 * place and runs before multipart parsing, because parsing holds the whole body in memory.
 * Room for a full set of photos plus the text fields and multipart framing.
 */
const UPLOAD_BODY_LIMIT = MAX_IMAGES_PER_PCN * MAX_IMAGE_BYTES + 1024 * 1024;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TEXT_FIELDS = ['vehicleRegistration', 'carParkId', 'offenceType', 'description', 'location', 'observedAt'] as const;
const takenAtSchema = z.iso.datetime({ offset: true });

type EvidenceImage = SniffedImage & { bytes: Uint8Array; sha256: string; takenAt: string | null; originalName: string };
type UploadedFile = Exclude<ReturnType<FormData['get']>, string | null>;
type PcnForm = { text: Record<string, string>; files: UploadedFile[]; takenAt: string[]; removeImageIds: string[] };

export function createPcnRoutes(deps: AppDeps) {
  const { db } = deps;
  const uploadsDir = deps.config.uploadsDir;
  const limitBody = bodyLimit({
    maxSize: UPLOAD_BODY_LIMIT,
    onError: () => {
      throw new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
    },
  });
  // Without a Content-Length the limit reads the body as it streams in; a client that drops
  // mid-upload makes that read fail, which is a broken request (400), not a server fault.
  const uploadBodyLimit = createMiddleware<AppEnv>(async (c, next) => {
    let isBodyRead = false;
    try {
      await limitBody(c, async () => {
        isBodyRead = true;
        await next();
      });
    } catch (error) {
      if (isBodyRead || error instanceof AppError) throw error;
      throw new AppError('BAD_REQUEST', SERVER_MESSAGES.invalidMultipart);
    }
  });
  const imageUrl = (fileName: string) => createSignedUploadUrl(deps.config.jwtSecret, fileName, deps.now());

  async function loadPcn(row: PcnRow, options: { withHistory: boolean }) {
    const images = (await findPcnImages(db, [row.id])).get(row.id) ?? [];
    const history = options.withHistory ? await findStatusHistory(db, row.id) : undefined;
    return toPcn(row, images, imageUrl, history);
  }

  async function loadPcnById(id: string) {
    const row = await findPcnRowById(db, id);
    if (!row) throw notFound();
    return loadPcn(row, { withHistory: true });
  }

  /** A replayed create answers with what the first request made, or 422 if the key now carries another notice. */
  async function answerReplay(c: Context, existing: PcnRow, requestHash: string) {
    if (existing.request_hash !== requestHash) {
      throw new AppError('IDEMPOTENCY_MISMATCH', SERVER_MESSAGES.idempotencyKeyReused);
    }
    c.header('Idempotent-Replayed', 'true');
    return ok(c, await loadPcn(existing, { withHistory: true }), { status: 201 });
  }

  /** Files written for a request that did not commit; a failure here must not hide the original error. */
  async function discardFiles(fileNames: readonly string[]) {
    try {
      await deleteEvidenceFiles(uploadsDir, fileNames);
    } catch (error) {
      deps.logger.error('could not delete evidence files', { fileNames, error: String(error) });
    }
  }

  return new Hono<AppEnv>()
    .use('*', requireAuth(deps))

    .get('/', async (c) => {
      const user = c.get('user');
      const query = readQuery(c, pcnListQuerySchema);
      const { rows, total } = await findPcnPage(db, { ...query, ...scopeOf(user) }, query);
      const images = await findPcnImages(db, rows.map((r) => r.id));
      return ok(c, {
        pcns: rows.map((row) => toPcn(row, images.get(row.id) ?? [], imageUrl)),
        pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit) },
      });
    })

    .get('/stats', async (c) => ok(c, await countPcnsByStatus(db, scopeOf(c.get('user')))))

    .get('/:id', async (c) => {
      const user = c.get('user');
      const row = await findPcnRowById(db, c.req.param('id'));
      if (!row || !canViewPcn(user, subjectOf(row))) throw notFound();
      const pcn = await loadPcn(row, { withHistory: true });
      await recordActivity(db, {
        userId: user.id,
        type: 'PCN_VIEWED',
        description: `Viewed PCN ${row.pcn_number}`,
        pcnId: row.id,
        now: deps.now(),
      });
      return ok(c, pcn);
    })

    .post('/', uploadBodyLimit, async (c) => {
      const user = c.get('user');
      const key = readIdempotencyKey(c);
      const form = await readPcnForm(c);
      const fields = parseWith(pcnFieldsSchema, form.text);
      const images = await readEvidenceImages(form.files, form.takenAt);
      const requestHash = hashPcnRequest(fields, images);

      const existing = await findPcnRowByIdempotencyKey(db, user.id, key);
      if (existing) return answerReplay(c, existing, requestHash);

      await assertMayFileAgainst(db, user, fields.carParkId);
      const fileNames = await writeEvidenceFiles(uploadsDir, images);
      const id = randomUUID();
      const now = deps.now().toISOString();
      try {
        await db.transaction().execute(async (trx) => {
          const { pcnNumber } = await insertPcn(trx, {
            id,
            vehicleRegistration: fields.vehicleRegistration,
            carParkId: fields.carParkId,
            offenceType: fields.offenceType,
            description: fields.description,
            location: fields.location,
            observedAt: fields.observedAt ? new Date(fields.observedAt).toISOString() : null,
            createdBy: user.id,
            idempotencyKey: key,
            requestHash,
            now,
          });
          await insertPcnImages(trx, imageRows(id, images, fileNames, now));
          await recordActivity(trx, { userId: user.id, type: 'PCN_CREATED', description: `Created PCN ${pcnNumber}`, pcnId: id, now: new Date(now) });
        });
      } catch (error) {
        await discardFiles(fileNames);
        // Two requests with one key raced: the unique (created_by, idempotency_key) index let
        // the other one win, so this one answers with the winner's PCN.
        const winner = await findPcnRowByIdempotencyKey(db, user.id, key);
        if (winner) return answerReplay(c, winner, requestHash);
        throw error;
      }
      return ok(c, await loadPcnById(id), { status: 201 });
    })

    .put('/:id', uploadBodyLimit, async (c) => {
      const user = c.get('user');
      const id = c.req.param('id');
      const row = await findPcnRowById(db, id);
      if (!row) throw notFound();
      assertDecision(decidePcnChange(user, subjectOf(row)));

      const form = await readPcnForm(c);
      const parsed = parseWith(updatePcnFieldsSchema, form.text);
      // Only fields the form sent replace stored ones (the schema's defaults would blank the rest).
      const fields = Object.fromEntries(
        Object.entries(parsed).filter(([name]) => form.text[name] !== undefined),
      ) as typeof parsed;
      const images = await readEvidenceImages(form.files, form.takenAt);
      if (fields.carParkId !== undefined && fields.carParkId !== row.car_park_id) {
        await assertMayFileAgainst(db, user, fields.carParkId);
      }

      const fileNames = await writeEvidenceFiles(uploadsDir, images);
      const now = deps.now().toISOString();
      let removedFiles: string[];
      try {
        removedFiles = await db.transaction().execute(async (trx) => {
          // Checked again inside the transaction: an admin may have moved the PCN on while the
          // photos were uploading.
          const current = await findPcnRowById(trx, id);
          if (!current) throw notFound();
          assertDecision(decidePcnChange(user, subjectOf(current)));
          const removed = await deletePcnImages(trx, id, form.removeImageIds);
          const remaining = await countPcnImages(trx, id);
          if (!fitsImageLimit(remaining, 0, images.length)) {
            throw new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.tooManyImages, { details: { images: VALIDATION_MESSAGES.tooManyImages } });
          }
          await updatePcnFields(
            trx,
            id,
            {
              ...fields,
              ...(fields.observedAt !== undefined && { observedAt: new Date(fields.observedAt).toISOString() }),
            },
            now,
          );
          await insertPcnImages(trx, imageRows(id, images, fileNames, now));
          await recordActivity(trx, { userId: user.id, type: 'PCN_EDITED', description: `Edited PCN ${current.pcn_number}`, pcnId: id, now: new Date(now) });
          return removed;
        });
      } catch (error) {
        await discardFiles(fileNames);
        throw error;
      }
      await discardFiles(removedFiles);
      return ok(c, await loadPcnById(id));
    })

    .delete('/:id', async (c) => {
      const user = c.get('user');
      const id = c.req.param('id');
      const now = deps.now();
      const fileNames = await db.transaction().execute(async (trx) => {
        const row = await findPcnRowById(trx, id);
        if (!row) throw notFound();
        assertDecision(decidePcnChange(user, subjectOf(row)));
        const files = await deletePcn(trx, id);
        await recordActivity(trx, { userId: user.id, type: 'PCN_DELETED', description: `Deleted PCN ${row.pcn_number}`, pcnId: id, now });
        return files;
      });
      // Files go only after the rows are gone, so a failed delete never leaves a row without its photo.
      await discardFiles(fileNames);
      return ok(c, { id });
    })

    .post('/:id/submit', async (c) => {
      const user = c.get('user');
      const row = await findPcnRowById(db, c.req.param('id'));
      if (!row) throw notFound();
      assertDecision(decidePcnSubmit(user, subjectOf(row)));
      return ok(c, await loadPcn(row, { withHistory: true }));
    })

    .patch('/:id/status', async (c) => {
      const user = c.get('user');
      const id = c.req.param('id');
      const input = await readJson(c, changePcnStatusInputSchema);
      const now = deps.now().toISOString();
      await db.transaction().execute(async (trx) => {
        const row = await findPcnRowById(trx, id);
        if (!row) throw notFound();
        const from = row.status as PcnStatus;
        assertDecision(decideStatusChange(user, subjectOf(row), input.status), SERVER_MESSAGES.transitionNotAllowed);
        // Admin notes are the admins' to write; an owner's note on cancelling stays in the history only.
        const adminNotes = isAdminRole(user.role) && input.adminNotes !== undefined ? input.adminNotes || null : undefined;
        const moved = await updatePcnStatus(trx, { pcnId: id, from, to: input.status, adminNotes, now });
        if (!moved) throw new AppError('CONFLICT', SERVER_MESSAGES.transitionNotAllowed);
        await insertStatusChange(trx, { pcnId: id, from, to: input.status, note: input.adminNotes || null, changedBy: user.id, now });
        await recordActivity(trx, {
          userId: user.id,
          type: 'PCN_STATUS_CHANGED',
          description: `PCN ${row.pcn_number}: ${from} -> ${input.status}`,
          pcnId: id,
          now: new Date(now),
        });
      });
      return ok(c, await loadPcnById(id));
    });
}

function scopeOf(user: AuthUser): { ownerId?: string } {
  return isAdminRole(user.role) ? {} : { ownerId: user.id };
}

function subjectOf(row: PcnRow) {
  return { createdBy: row.created_by, status: row.status as PcnStatus };
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', ERROR_MESSAGES.pcnNotFound);
}

function assertDecision(decision: PcnDecision, lockedMessage: string = SERVER_MESSAGES.pcnNotEditable): void {
  if (decision === 'hidden') throw notFound();
  if (decision === 'locked') throw new AppError('CONFLICT', lockedMessage);
  if (decision === 'forbidden') throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
}

function readIdempotencyKey(c: Context): string {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER)?.trim() ?? '';
  if (!UUID_PATTERN.test(key)) throw new AppError('BAD_REQUEST', SERVER_MESSAGES.idempotencyKeyInvalid);
  return key.toLowerCase();
}

/** Reads the multipart body; anything that is not well-formed multipart is a 400, never a 500. */
async function readPcnForm(c: Context): Promise<PcnForm> {
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  if (!type.startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.invalidMultipart);
  }
  let form: FormData;
  try {
    form = await c.req.raw.formData();
  } catch (error) {
    // The body limit reports itself through its own AppError; everything else is a bad body.
    if (error instanceof AppError) throw error;
    throw new AppError('BAD_REQUEST', SERVER_MESSAGES.invalidMultipart);
  }
  const text: Record<string, string> = {};
  for (const name of TEXT_FIELDS) {
    const value = form.get(name);
    if (typeof value === 'string') text[name] = value;
  }
  // An optional date sent empty by a form means "not given".
  if (text.observedAt === '') delete text.observedAt;
  const files = form
    .getAll(PCN_MULTIPART_FIELDS.images)
    .filter((value): value is UploadedFile => typeof value !== 'string')
    // A file input left empty still sends a nameless, empty part.
    .filter((file) => !(file.size === 0 && file.name === ''));
  const takenAt = form.getAll(PCN_MULTIPART_FIELDS.imageTakenAt).map((v) => (typeof v === 'string' ? v.trim() : ''));
  const removeImageIds = [
    ...new Set(
      form
        .getAll(PCN_MULTIPART_FIELDS.removeImageIds)
        .filter((v): v is string => typeof v === 'string' && v.trim() !== '')
        .map((v) => v.trim()),
    ),
  ];
  // A PCN never holds more than MAX_IMAGES_PER_PCN images; a longer list is not a real edit
  // and would only hit SQLite's bound-parameter limit.
  if (removeImageIds.length > MAX_IMAGES_PER_PCN) {
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.invalidInput, { details: { removeImageIds: VALIDATION_MESSAGES.tooManyImages } });
  }
  return { text, files, takenAt, removeImageIds };
}

/** Checks count, size and real type of every photo before anything is written. */
async function readEvidenceImages(files: UploadedFile[], takenAt: string[]): Promise<EvidenceImage[]> {
  if (files.length > MAX_IMAGES_PER_PCN) {
    throw new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.tooManyImages, { details: { images: VALIDATION_MESSAGES.tooManyImages } });
  }
  if (takenAt.length > files.length) {
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.imageTakenAtInvalid, { details: { imageTakenAt: SERVER_MESSAGES.imageTakenAtInvalid } });
  }
  const images: EvidenceImage[] = [];
  for (const [index, file] of files.entries()) {
    if (file.size > MAX_IMAGE_BYTES) {
      throw new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.imageTooLarge, { details: { images: VALIDATION_MESSAGES.imageTooLarge } });
    }
    const bytes = new Uint8Array(await file.arrayBuffer());
    const sniffed = detectImageType(bytes);
    if (!sniffed) {
      const message = `${VALIDATION_MESSAGES.imageWrongType} (${file.name || `photo ${index + 1}`} is not)`;
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', message, { details: { images: VALIDATION_MESSAGES.imageWrongType } });
    }
    const rawTakenAt = takenAt[index] ?? '';
    if (rawTakenAt !== '' && !takenAtSchema.safeParse(rawTakenAt).success) {
      throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.imageTakenAtInvalid, { details: { imageTakenAt: SERVER_MESSAGES.imageTakenAtInvalid } });
    }
    images.push({
      ...sniffed,
      bytes,
      sha256: sha256Hex(bytes),
      takenAt: rawTakenAt === '' ? null : new Date(rawTakenAt).toISOString(),
      originalName: file.name.slice(0, 200),
    });
  }
  return images;
}

function imageRows(pcnId: string, images: EvidenceImage[], fileNames: string[], now: string) {
  return images.map((image, index) => ({
    id: randomUUID(),
    pcn_id: pcnId,
    file_name: fileNames[index]!,
    original_name: image.originalName,
    mime_type: image.mimeType,
    size: image.bytes.length,
    sha256: image.sha256,
    taken_at: image.takenAt,
    created_at: now,
  }));
}

/** A USER files only against an active car park assigned to them; admins against any active one. */
async function assertMayFileAgainst(db: Db, user: AuthUser, carParkId: string): Promise<void> {
  const carPark = await findCarParkForFiling(db, carParkId, user.id);
  if (!carPark || !carPark.isActive) {
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.carParkNotFound, { details: { carParkId: SERVER_MESSAGES.carParkNotFound } });
  }
  if (!isAdminRole(user.role) && !carPark.isAssigned) {
    throw new AppError('FORBIDDEN', SERVER_MESSAGES.carParkNotAssigned, { details: { carParkId: SERVER_MESSAGES.carParkNotAssigned } });
  }
}
