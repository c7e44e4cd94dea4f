import { Hono, type Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import {
  bulkPcnStatusInputSchema,
  changePcnStatusInputSchema,
  DEVICE_TIME_HEADER,
  IDEMPOTENCY_KEY_HEADER,
  isAdminRole,
  MAX_IMAGE_BYTES,
  MAX_IMAGES_PER_PCN,
  PCN_MULTIPART_FIELDS,
  pcnDuplicatesQuerySchema,
  pcnFieldsSchema,
  pcnListQuerySchema,
  keeperInputSchema,
  hirerInputSchema,
  driverInputSchema,
  pcnLetterInputSchema,
  pcnLetterPostedInputSchema,
  paymentInputSchema,
  keeperStateOf,
  pcnExportFileName,
  pcnStatsQuerySchema,
  SERVER_MESSAGES,
  updatePcnFieldsSchema,
  VALIDATION_MESSAGES,
  type BulkResponse,
  type Pcn,
  type PcnAuditResponse,
  type PcnDuplicatesResponse,
  type PcnListQuery,
  type PcnNeighbours,
  type PcnSelectionResponse,
  UUID_PATTERN,
  type AppealStatus,
} from '@parkpatrol/shared';
import { z } from 'zod';
import type { AppDeps, AppEnv, AuthUser } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { IMAGE_FACT_FIELDS, type RawImageFacts } from '../domain/image-facts.ts';
import { canViewPcn } from '../domain/pcn-rules.ts';
import { PCN_CSV_COLUMNS, pcnCsvRecord } from '../domain/pcn-csv.ts';
import { AppError } from '../http/app-error.ts';
import { ok } from '../http/respond.ts';
import { parseWith, readJson, readQuery } from '../http/validation.ts';
import { findCarParkById } from '../repositories/car-parks.ts';
import { findPcnNeighbours, findPcnPage, streamPcnRows, type PcnListFilter } from '../repositories/pcn-list.ts';
import {
  countPcnsByStatus,
  findAuditEntries,
  findPcnImages,
  findPcnRowById,
  findPossibleDuplicates,
  findSameParkingEvent,
  findStatusHistory,
  toPcn,
  type PcnRow,
  type PcnScope,
} from '../repositories/pcns.ts';
import { recordActivity } from '../services/activities.ts';
import { findNoticeTerms } from '../repositories/terms.ts';
import { findKeeper, findKeepers } from '../repositories/keepers.ts';
import { recordKeeper } from '../workflows/record-keeper.ts';
import { findHirer, findNamedDriver } from '../repositories/letter-parties.ts';
import { generatePcnLetter, hirerWithWindow, markPcnLetterPosted, recordHirer, recordNamedDriver } from '../workflows/driver-and-hirer.ts';
import { recordPayment } from '../workflows/record-payment.ts';
import { findPayments } from '../repositories/payments.ts';
import { buildEvidencePack } from '../services/build-evidence-pack.ts';
import { csvStream, toRecords } from '../services/csv-export.ts';
import { findAppealByPcnId } from '../repositories/appeals.ts';
import { discardSpooledFiles, spoolMultipart, SpoolError, type SpoolProblem } from '../services/multipart-spool.ts';
import { createUploadGate } from '../services/upload-gate.ts';
import { createSignedUploadUrl } from '../services/upload-urls.ts';
import { changePcn } from '../workflows/change-pcn.ts';
import { changePcnStatus, changePcnStatuses } from '../workflows/change-pcn-status.ts';
import { deletePcn } from '../workflows/delete-pcn.ts';
import { filePcn } from '../workflows/file-pcn.ts';
import { assertMayFileAgainst, findChangeablePcn, pcnNotFound, subjectOf } from '../workflows/pcn-access.ts';
import type { EvidenceDeps, UploadedPhotos } from '../workflows/pcn-evidence.ts';
import { selectAllMatchingPcns } from '../workflows/select-all-matching.ts';
import { listSentDocuments, readSentDocument } from '../workflows/sent-documents.ts';
import { submitPcn } from '../workflows/submit-pcn.ts';
import { SANDBOXED_FILE_POLICY } from '../http/sandboxed-file.ts';

/**
 * app.ts leaves the multipart POST /api/pcns and PUT /api/pcns/{id} without its 1 MB JSON
 * limit; this limit takes its place, enforced as the body streams in (services/multipart-spool.ts):
 * room for a full set of photos plus the text fields and multipart framing.
 */
/** The signed-in caller and their session: photo URLs are signed for the session. */
type Viewer = AuthUser & { sessionId: string };
function viewerOf(c: Context<AppEnv>): Viewer {
  return { ...c.get('user'), sessionId: c.get('sessionId') };
}

const UPLOAD_BODY_LIMIT = MAX_IMAGES_PER_PCN * MAX_IMAGE_BYTES + 1024 * 1024;
/** Text fields are short (a description is at most 2000 characters); 64 KB leaves room for any encoding. */
const MAX_FIELD_BYTES = 64 * 1024;
/** Text is the one part kept in memory; a long removeImageIds list is refused later with its own message. */
const MAX_FIELDS = 50_000;
const MAX_FIELDS_TOTAL_BYTES = 2 * 1024 * 1024;

/** The notice's one-value fields of the multipart body (shared's PCN_MULTIPART_FIELDS, the one list). */
const TEXT_FIELDS = [
  PCN_MULTIPART_FIELDS.vehicleRegistration,
  PCN_MULTIPART_FIELDS.carParkId,
  PCN_MULTIPART_FIELDS.offenceType,
  PCN_MULTIPART_FIELDS.description,
  PCN_MULTIPART_FIELDS.location,
  PCN_MULTIPART_FIELDS.observedAt,
  PCN_MULTIPART_FIELDS.issuedAt,
  PCN_MULTIPART_FIELDS.stayApplies,
  PCN_MULTIPART_FIELDS.duplicateReason,
  PCN_MULTIPART_FIELDS.noticeServedBy,
  PCN_MULTIPART_FIELDS.noticeServedAt,
  PCN_MULTIPART_FIELDS.firstSeenAt,
  PCN_MULTIPART_FIELDS.serviceCorrectionReason,
] as const;
/** Optional fields where an empty value from a form means "not given". */
const EMPTY_MEANS_ABSENT = ['observedAt', 'issuedAt', 'stayApplies', 'noticeServedAt'] as const;
const deviceTimeSchema = z.iso.datetime({ offset: true });

type PcnForm = UploadedPhotos & { text: Record<string, string>; removeImageIds: string[] };

/** Temporary files each request spooled; removed when it ends, whatever happened. */
const spooledBy = new WeakMap<Context, string[]>();

export function createPcnRoutes(deps: AppDeps) {
  const { db } = deps;
  const uploadsDir = deps.config.uploadsDir;
  const evidenceDeps: EvidenceDeps = { db, evidence: deps.evidence, logger: deps.logger };
  const gate = deps.uploadGate ?? createUploadGate();
  // A declared length over the limit is refused before a byte is read; a chunked body is
  // counted as it streams. At most a few uploads run per user and in all, so a flood of slow
  // uploads cannot pile up open files and parsers; what the request spooled goes when it ends.
  const uploadBodyLimit = createMiddleware<AppEnv>(async (c, next) => {
    const declared = Number(c.req.header('content-length'));
    if (!c.req.header('transfer-encoding') && Number.isFinite(declared) && declared > UPLOAD_BODY_LIMIT) {
      throw new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
    }
    const release = gate.enter(c.get('user').id);
    if (!release.ok) {
      throw new AppError(
        release.scope === 'user' ? 'RATE_LIMITED' : 'SERVICE_BUSY',
        release.scope === 'user' ? SERVER_MESSAGES.tooManyUploads : SERVER_MESSAGES.uploadsBusy,
        {
          headers: { 'Retry-After': String(release.retryAfterSeconds) },
        },
      );
    }
    const spooled: string[] = [];
    spooledBy.set(c, spooled);
    try {
      await next();
    } finally {
      release.leave();
      await discardSpooledFiles(spooled);
    }
  });
  /** Photo URLs for one session: they stop working when it ends (services/upload-urls.ts). */
  const imageUrlFor = (sessionId: string) => (fileName: string) =>
    createSignedUploadUrl(deps.config.jwtSecret, fileName, deps.now(), sessionId);

  async function loadPcn(row: PcnRow, viewer: Viewer, options: { withHistory: boolean }): Promise<Pcn> {
    const user = viewer;
    const images = (await findPcnImages(db, [row.id])).get(row.id) ?? [];
    const history = options.withHistory ? await findStatusHistory(db, row.id) : undefined;
    const isAdmin = isAdminRole(user.role);
    const possibleDuplicates = isAdmin ? (await findPossibleDuplicates(db, [row.id])).get(row.id) : undefined;
    const pcn = toPcn(row, images, imageUrlFor(viewer.sessionId), viewFor(user, possibleDuplicates), history);
    if (options.withHistory) {
      pcn.terms = await findNoticeTerms(db, { operatorTermsId: row.operator_terms_id, carParkTermsId: row.car_park_terms_id });
      // The registered keeper is personal data: admins only.
      if (isAdmin) {
        pcn.keeper = await findKeeper(db, row.id);
        pcn.keeperState = keeperStateOf(pcn.keeper);
        const hirer = await findHirer(db, row.id);
        pcn.hirer = hirer ? hirerWithWindow(hirer) : null;
        pcn.namedDriver = await findNamedDriver(db, row.id);
        pcn.payments = await findPayments(db, row.id);
        const appeal = await findAppealByPcnId(db, row.id);
        pcn.appeal = appeal
          ? { id: appeal.id, reference: appeal.reference, status: appeal.status as AppealStatus, respondBy: appeal.respond_by }
          : null;
      }
    }
    return pcn;
  }

  async function loadPcnById(id: string, viewer: Viewer) {
    const row = await findPcnRowById(db, id);
    if (!row) throw pcnNotFound();
    return loadPcn(row, viewer, { withHistory: true });
  }

  function viewFor(user: AuthUser, possibleDuplicates?: ReadonlyArray<{ id: string; pcnNumber: string }>) {
    return { now: deps.now(), isAdmin: isAdminRole(user.role), possibleDuplicates };
  }

  return (
    new Hono<AppEnv>()
      .use('*', requireAuth(deps))

      .get('/', async (c) => {
        const user = c.get('user');
        const query = readQuery(c, pcnListQuerySchema);
        // The deadline queue and the duplicate flags are admin tools.
        if ((query.flagged !== undefined || query.sort === 'deadline') && !isAdminRole(user.role)) {
          throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        }
        const { rows, total, totalCapped } = await findPcnPage(db, listFilterOf(query, scopeOf(user, query.scope)), query);
        const ids = rows.map((r) => r.id);
        const images = await findPcnImages(db, ids);
        const isAdmin = isAdminRole(user.role);
        const duplicates = isAdmin ? await findPossibleDuplicates(db, ids) : undefined;
        const keepers = isAdmin ? await findKeepers(db, ids) : undefined;
        return ok(c, 'GET /pcns', {
          pcns: rows.map((row) => {
            const rowImages = images.get(row.id) ?? [];
            // Only the first photo is signed: a row carries its thumbnail and the count (docs/decisions/0021).
            const { images: shown, ...pcn } = toPcn(
              row,
              rowImages.slice(0, 1),
              imageUrlFor(c.get('sessionId')),
              viewFor(user, duplicates?.get(row.id)),
            );
            if (keepers) pcn.keeperState = keeperStateOf(keepers.get(row.id) ?? null);
            return { ...pcn, photoCount: rowImages.length, firstThumbnailUrl: shown[0]?.thumbnailUrl ?? null };
          }),
          pagination: { page: query.page, limit: query.limit, total, pages: Math.ceil(total / query.limit), totalCapped },
        });
      })

      .get('/stats', async (c) =>
        ok(c, 'GET /pcns/stats', await countPcnsByStatus(db, scopeOf(c.get('user'), readQuery(c, pcnStatsQuerySchema).scope))),
      )

      // Manage PCNs' 'Export CSV': exactly the filtered, sorted list, every page, streamed.
      .get('/export.csv', requireAdmin, async (c) => {
        const query = readQuery(c, pcnListQuerySchema);
        const rows = streamPcnRows(db, listFilterOf(query, EVERYONE));
        const csv = csvStream(PCN_CSV_COLUMNS, toRecords(rows, pcnCsvRecord));
        const carParkName = query.carParkId ? (await findCarParkById(db, query.carParkId))?.name : undefined;
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="${pcnExportFileName(deps.now(), { ...query, carParkName })}"`);
        return c.body(csv);
      })

      // Manage PCNs' 'Select all matching': every PCN the list's query selects, not only the page shown.
      .get('/selection', requireAdmin, async (c) => {
        const body: PcnSelectionResponse = await selectAllMatchingPcns(db, listFilterOf(readQuery(c, pcnListQuerySchema), EVERYONE));
        return ok(c, 'GET /pcns/selection', body);
      })

      // The review's 'Previous' and 'Save & next': the PCNs around this one in the list it was opened from.
      .get('/:id/neighbours', requireAdmin, async (c) => {
        const neighbours: PcnNeighbours | undefined = await findPcnNeighbours(
          db,
          c.req.param('id'),
          listFilterOf(readQuery(c, pcnListQuerySchema), EVERYONE),
        );
        if (!neighbours) throw pcnNotFound();
        return ok(c, 'GET /pcns/:id/neighbours', neighbours);
      })

      /**
       * Manage PCNs' bulk status change: each PCN goes through the single change on its own, and the
       * answer says per PCN whether it moved (a PCN whose status does not allow it stays as it was).
       */
      .post('/bulk-status', requireAdmin, async (c) => {
        const input = await readJson(c, bulkPcnStatusInputSchema);
        const body: BulkResponse = { results: await changePcnStatuses(deps, { ...input, actor: c.get('user') }) };
        return ok(c, 'POST /pcns/bulk-status', body);
      })

      /**
       * Other PCNs for the same parking event (same registration, car park and UTC day of first
       * sighting, else creation), anyone's: only number, status and time, nothing of the officer
       * who filed them. A USER may ask only about a car park assigned to them.
       */
      .get('/duplicates', async (c) => {
        const user = c.get('user');
        const query = readQuery(c, pcnDuplicatesQuerySchema);
        await assertMayFileAgainst(db, user, query.carParkId, { mustBeActive: false });
        const duplicates = await findSameParkingEvent(db, {
          vehicleRegistration: query.vehicleRegistration,
          carParkId: query.carParkId,
          day: query.date,
        });
        const body: PcnDuplicatesResponse = { duplicates };
        return ok(c, 'GET /pcns/duplicates', body);
      })

      /**
       * The audit trail, oldest first. The owner sees it as well as admins: everything in it (their
       * fields, photos, the status changes with who made them and the admins' notes) is already
       * shown to them on GET /pcns/{id}, and an officer asked about a notice at appeal needs to
       * show what happened to it. Another USER gets the 404 of a PCN that does not exist. The
       * trail outlives a deleted PCN: admins can still read it by the PCN's id.
       */
      .get('/:id/audit', async (c) => {
        const user = c.get('user');
        const id = c.req.param('id');
        const row = await findPcnRowById(db, id);
        if (row ? !canViewPcn(user, subjectOf(row)) : !isAdminRole(user.role)) throw pcnNotFound();
        const entries = await findAuditEntries(db, id);
        if (!row && entries.length === 0) throw pcnNotFound();
        const body: PcnAuditResponse = { pcnId: id, entries };
        return ok(c, 'GET /pcns/:id/audit', body);
      })

      /**
       * The evidence pack for an appeal: one PDF with the notice, its timeline, every
       * photo and the audit trail. Admins only: it is what the operator sends to the motorist and
       * the appeals service. An officer gets 403 whether or not the PCN exists.
       */
      .get('/:id/evidence-pack', async (c) => {
        if (!isAdminRole(c.get('user').role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        const pack = await buildEvidencePack(deps, c.req.param('id'));
        return c.body(pack.bytes, 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${pack.fileName}"`,
          // Personal data, and made fresh each time: nothing may keep a copy on the way.
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
      })

      // What was sent for this charge, as kept (decision 0025): admins only.
      .get('/:id/documents', async (c) => {
        return ok(c, 'GET /pcns/:id/documents', await listSentDocuments(db, { user: c.get('user'), pcnId: c.req.param('id') }));
      })

      // One document's stored bytes, as they were sent; never shown inline (a PDF viewer runs in our origin).
      .get('/:id/documents/:documentId', async (c) => {
        const { document, bytes } = await readSentDocument(deps, {
          user: c.get('user'),
          pcnId: c.req.param('id'),
          documentId: c.req.param('documentId'),
        });
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': document.mimeType,
          'Content-Disposition': `attachment; filename="${document.fileName}"`,
          'Repr-Digest': `sha-256=:${Buffer.from(document.sha256, 'hex').toString('base64')}:`,
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': SANDBOXED_FILE_POLICY,
        });
      })

      // A payment taken by the operator's own means (admins).
      .post('/:id/payments', async (c) => {
        const user = c.get('user');
        if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        // One key per attempt, kept across its retries: the payment is recorded once.
        const key = c.req.header(IDEMPOTENCY_KEY_HEADER)?.trim() ?? '';
        if (!UUID_PATTERN.test(key)) throw new AppError('BAD_REQUEST', SERVER_MESSAGES.idempotencyKeyInvalid);
        const payment = await readJson(c, paymentInputSchema);
        const result = await recordPayment(db, {
          pcnId: c.req.param('id'),
          idempotencyKey: key.toLowerCase(),
          payment,
          user,
          now: deps.now(),
        });
        if (result.replayed) c.header('Idempotent-Replayed', 'true');
        return ok(c, 'POST /pcns/:id/payments', await loadPcnById(c.req.param('id'), viewerOf(c)));
      })

      // The registered keeper, as an admin entered it (and their check of the DVLA's vehicle).
      .put('/:id/keeper', async (c) => {
        const user = c.get('user');
        if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        const input = await readJson(c, keeperInputSchema);
        const row = await findPcnRowById(db, c.req.param('id'));
        if (!row) throw pcnNotFound();
        await recordKeeper(db, { pcnId: row.id, keeper: input, source: 'MANUAL', confirm: input.vehicleConfirmed, user, now: deps.now() });
        return ok(c, 'PUT /pcns/:id/keeper', await loadPcnById(row.id, viewerOf(c)));
      })

      // The hirer a hire firm named with its documents, and a named driver (decision 0027): admins only.
      .put('/:id/hirer', async (c) => {
        const user = c.get('user');
        if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        const hirer = await readJson(c, hirerInputSchema);
        await recordHirer(db, { pcnId: c.req.param('id'), hirer, user, now: deps.now() });
        return ok(c, 'PUT /pcns/:id/hirer', await loadPcnById(c.req.param('id'), viewerOf(c)));
      })

      .put('/:id/driver', async (c) => {
        const user = c.get('user');
        if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        const driver = await readJson(c, driverInputSchema);
        await recordNamedDriver(db, { pcnId: c.req.param('id'), driver, user, now: deps.now() });
        return ok(c, 'PUT /pcns/:id/driver', await loadPcnById(c.req.param('id'), viewerOf(c)));
      })

      .post('/:id/letters', async (c) => {
        const user = c.get('user');
        if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        const input = await readJson(c, pcnLetterInputSchema);
        const { bytes, fileName } = await generatePcnLetter(
          { db, evidence: deps.evidence },
          { pcnId: c.req.param('id'), kind: input.kind, postOn: input.postOn, appUrl: deps.config.appUrl, user },
          deps.now(),
        );
        return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${fileName}"`,
          // Names and addresses: nothing may keep a copy on the way.
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
      })

      .post('/:id/letters/posted', async (c) => {
        const user = c.get('user');
        if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
        const input = await readJson(c, pcnLetterPostedInputSchema);
        const posting = await markPcnLetterPosted(db, {
          pcnId: c.req.param('id'),
          ...input,
          user,
          now: deps.now(),
          appUrl: deps.config.appUrl,
        });
        return ok(c, 'POST /pcns/:id/letters/posted', posting);
      })

      .get('/:id', async (c) => {
        const user = c.get('user');
        const row = await findPcnRowById(db, c.req.param('id'));
        if (!row || !canViewPcn(user, subjectOf(row))) throw pcnNotFound();
        const pcn = await loadPcn(row, viewerOf(c), { withHistory: true });
        await recordActivity(db, {
          userId: user.id,
          type: 'PCN_VIEWED',
          description: `Viewed PCN ${row.pcn_number}`,
          pcnId: row.id,
          now: deps.now(),
        });
        return ok(c, 'GET /pcns/:id', pcn);
      })

      .post('/', uploadBodyLimit, async (c) => {
        const user = c.get('user');
        const receivedAt = deps.now();
        const key = readIdempotencyKey(c);
        const deviceTime = readDeviceTime(c);
        const form = await readPcnForm(c, uploadsDir);
        const fields = parseWith(pcnFieldsSchema, form.text);
        const filed = await filePcn(evidenceDeps, {
          actor: user,
          idempotencyKey: key,
          fields,
          photos: form,
          deviceTime,
          receivedAt,
          appUrl: deps.config.appUrl,
        });
        deps.metrics.outboxUploads.inc({ kind: 'notice', outcome: filed.replayed ? 'replayed' : 'stored' });
        if (filed.replayed) {
          c.header('Idempotent-Replayed', 'true');
          return ok(c, 'POST /pcns', await loadPcn(filed.row, viewerOf(c), { withHistory: true }), { status: 201 });
        }
        return ok(c, 'POST /pcns', await loadPcnById(filed.pcnId, viewerOf(c)), { status: 201 });
      })

      .put('/:id', uploadBodyLimit, async (c) => {
        const user = c.get('user');
        const receivedAt = deps.now();
        const id = c.req.param('id');
        // Refused before the body is read: a PCN the caller may not change takes no upload.
        const row = await findChangeablePcn(db, user, id);

        const deviceTime = readDeviceTime(c);
        const form = await readPcnForm(c, uploadsDir);
        const parsed = parseWith(updatePcnFieldsSchema, form.text);
        // Only fields the form sent replace stored ones (the schema's defaults would blank the rest).
        const { serviceCorrectionReason, ...fields } = Object.fromEntries(
          Object.entries(parsed).filter(([name]) => form.text[name] !== undefined),
        ) as typeof parsed;
        await changePcn(evidenceDeps, {
          row,
          actor: user,
          fields,
          serviceCorrectionReason: serviceCorrectionReason || null,
          photos: form,
          removeImageIds: form.removeImageIds,
          deviceTime,
          receivedAt,
        });
        return ok(c, 'PUT /pcns/:id', await loadPcnById(id, viewerOf(c)));
      })

      .delete('/:id', async (c) => {
        const id = c.req.param('id');
        await deletePcn(evidenceDeps, { pcnId: id, actor: c.get('user'), now: deps.now() });
        return ok(c, 'DELETE /pcns/:id', { id });
      })

      .post('/:id/submit', async (c) => {
        const user = c.get('user');
        const row = await submitPcn(db, user, c.req.param('id'));
        return ok(c, 'POST /pcns/:id/submit', await loadPcn(row, viewerOf(c), { withHistory: true }));
      })

      .patch('/:id/status', async (c) => {
        const user = c.get('user');
        const id = c.req.param('id');
        const input = await readJson(c, changePcnStatusInputSchema);
        await changePcnStatus(db, { pcnId: id, actor: user, status: input.status, adminNotes: input.adminNotes, now: deps.now() });
        return ok(c, 'PATCH /pcns/:id/status', await loadPcnById(id, viewerOf(c)));
      })
  );
}

/** Admin tools that act on the whole list (export, selection, neighbours) see everyone's notices. */
const EVERYONE: PcnScope = {};

/** The caller's own notices, or everyone's for an admin who asks (scope=all). */
function scopeOf(user: AuthUser, scope: 'mine' | 'all' | undefined): PcnScope {
  if (scope !== 'all') return { ownerId: user.id };
  if (!isAdminRole(user.role)) throw new AppError('FORBIDDEN', SERVER_MESSAGES.forbidden);
  return {};
}

/** The list's filters and sort, as the repository takes them, from the list's query (its page aside). */
function listFilterOf(query: PcnListQuery, scope: PcnScope): PcnListFilter {
  const { flagged, scope: _scope, page: _page, limit: _limit, ...criteria } = query;
  return { ...criteria, ...scope, flaggedDuplicates: flagged === 'duplicates' };
}

function readIdempotencyKey(c: Context): string {
  const key = c.req.header(IDEMPOTENCY_KEY_HEADER)?.trim() ?? '';
  if (!UUID_PATTERN.test(key)) throw new AppError('BAD_REQUEST', SERVER_MESSAGES.idempotencyKeyInvalid);
  return key.toLowerCase();
}

/** The device's own clock at sending (X-Device-Time), or null when it did not say. */
function readDeviceTime(c: Context): Date | null {
  const value = c.req.header(DEVICE_TIME_HEADER)?.trim();
  if (!value) return null;
  if (!deviceTimeSchema.safeParse(value).success) {
    throw new AppError('BAD_REQUEST', SERVER_MESSAGES.deviceTimeInvalid, {
      details: { [DEVICE_TIME_HEADER]: SERVER_MESSAGES.deviceTimeInvalid },
    });
  }
  return new Date(value);
}

/** Reads the multipart body; anything that is not well-formed multipart is a 400, never a 500. */
async function readPcnForm(c: Context, uploadsDir: string): Promise<PcnForm> {
  const type = c.req.header('content-type')?.toLowerCase() ?? '';
  if (!type.startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', SERVER_MESSAGES.invalidMultipart);
  }
  let form: Awaited<ReturnType<typeof spoolMultipart>>;
  try {
    form = await spoolMultipart(c.req.raw, {
      dir: uploadsDir,
      fileField: PCN_MULTIPART_FIELDS.images,
      limits: {
        maxBodyBytes: UPLOAD_BODY_LIMIT,
        maxFileBytes: MAX_IMAGE_BYTES,
        maxFiles: MAX_IMAGES_PER_PCN,
        maxFieldBytes: MAX_FIELD_BYTES,
        maxFields: MAX_FIELDS,
        maxFieldsTotalBytes: MAX_FIELDS_TOTAL_BYTES,
      },
    });
  } catch (error) {
    if (error instanceof SpoolError) throw refusalFor(error.problem);
    throw error;
  }
  spooledBy.get(c)?.push(...form.files.map((file) => file.tempPath));
  const first = (name: string) => form.fields.get(name)?.[0];
  const all = (name: string) => form.fields.get(name) ?? [];
  const text: Record<string, string> = {};
  for (const name of TEXT_FIELDS) {
    const value = first(name);
    if (value !== undefined) text[name] = value;
  }
  // An optional value sent empty by a form means "not given".
  for (const name of EMPTY_MEANS_ABSENT) if (text[name]?.trim() === '') delete text[name];
  // A file input left empty still sends a nameless, empty part.
  const files = form.files.filter((file) => !(file.size === 0 && file.name === ''));
  const facts = Object.fromEntries(
    IMAGE_FACT_FIELDS.map((field) => [field, all(PCN_MULTIPART_FIELDS[field]).map((v) => v.trim())]),
  ) as RawImageFacts;
  const removeImageIds = [
    ...new Set(
      all(PCN_MULTIPART_FIELDS.removeImageIds)
        .filter((v) => v.trim() !== '')
        .map((v) => v.trim()),
    ),
  ];
  // A PCN never holds more than MAX_IMAGES_PER_PCN images; a longer list is not a real edit
  // and would only hit SQLite's bound-parameter limit.
  if (removeImageIds.length > MAX_IMAGES_PER_PCN) {
    throw new AppError('VALIDATION_FAILED', SERVER_MESSAGES.invalidInput, {
      details: { removeImageIds: VALIDATION_MESSAGES.tooManyImages },
    });
  }
  return { text, files, facts, removeImageIds };
}

function refusalFor(problem: SpoolProblem): AppError {
  switch (problem) {
    case 'file-too-large':
      return new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.imageTooLarge, {
        details: { images: VALIDATION_MESSAGES.imageTooLarge },
      });
    case 'too-many-files':
      return new AppError('PAYLOAD_TOO_LARGE', VALIDATION_MESSAGES.tooManyImages, {
        details: { images: VALIDATION_MESSAGES.tooManyImages },
      });
    case 'body-too-large':
    case 'field-too-large':
    case 'too-many-fields':
      return new AppError('PAYLOAD_TOO_LARGE', SERVER_MESSAGES.bodyTooLarge);
    case 'malformed':
      return new AppError('BAD_REQUEST', SERVER_MESSAGES.invalidMultipart);
  }
}
