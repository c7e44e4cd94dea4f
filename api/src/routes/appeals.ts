import { Hono } from 'hono';
import {
  APPEAL_CHANNEL_LABELS,
  APPEAL_REASON_LABELS,
  APPEAL_STATUS_LABELS,
  appealDecisionInputSchema,
  appealExportFileName,
  appealListQuerySchema,
  ENTERED_APPEAL_MULTIPART_FIELDS,
  enteredAppealInputSchema,
  IDEMPOTENCY_KEY_HEADER,
  SERVER_MESSAGES,
  setAsideAppealInputSchema,
  UUID_PATTERN,
  type AppealListItem,
} from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin, requireAuth } from '../auth/middleware.ts';
import { AppError } from '../http/app-error.ts';
import { checkAppealBodyHeaders, readAppealForm } from '../http/appeal-form.ts';
import { ok } from '../http/respond.ts';
import { parseWith, readJson, readQuery } from '../http/validation.ts';
import {
  appealLetterOf,
  listAppealPage,
  listEveryAppeal,
  openAppealAttachment,
  viewAppeal,
  viewAppealRow,
} from '../workflows/appeal-views.ts';
import { csvDate, csvTime } from '../domain/csv-cells.ts';
import { csvStream, toRecords } from '../services/csv-export.ts';
import { discardSpooledFiles } from '../services/multipart-spool.ts';
import { createUploadGate } from '../services/upload-gate.ts';
import { considerLateAppeal, decideAppeal, previewAppealDecision } from '../workflows/decide-appeal.ts';
import { setAsideAppeal } from '../workflows/set-aside-appeal.ts';
import { enterAppeal } from '../workflows/submit-appeal.ts';
import { SANDBOXED_FILE_POLICY } from '../http/sandboxed-file.ts';

const ENTERED_APPEAL_TEXT_FIELDS = Object.values(ENTERED_APPEAL_MULTIPART_FIELDS).filter(
  (name) => name !== ENTERED_APPEAL_MULTIPART_FIELDS.attachments,
);

const APPEAL_CSV_COLUMNS = [
  'Appeal',
  'Charge',
  'Registration',
  'Car park',
  'Appellant',
  'Channel',
  'Reason',
  'Received',
  'Respond by',
  'Status',
  'Verification code',
] as const;

function appealCsvRecord(item: AppealListItem): string[] {
  return [
    item.reference,
    item.pcnNumber,
    item.vehicleRegistration,
    item.carParkName,
    item.appellantName,
    APPEAL_CHANNEL_LABELS[item.channel],
    APPEAL_REASON_LABELS[item.reason],
    csvTime(item.receivedAt),
    csvDate(item.respondBy),
    APPEAL_STATUS_LABELS[item.status],
    item.verificationCode ?? '',
  ];
}

async function* each<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

/** The appeals handler's desk: the queue, an appeal whole, its attachments, the decision and its letter. */
export function createAppealRoutes(deps: AppDeps) {
  const gate = deps.uploadGate ?? createUploadGate();
  return (
    new Hono<AppEnv>()
      .use('*', requireAuth(deps), requireAdmin)

      .get('/', async (c) => {
        return ok(c, 'GET /appeals', await listAppealPage(deps, readQuery(c, appealListQuerySchema)));
      })

      .get('/export.csv', async (c) => {
        const query = readQuery(c, appealListQuerySchema);
        const items = await listEveryAppeal(deps, query);
        c.header('Content-Type', 'text/csv; charset=utf-8');
        c.header('Content-Disposition', `attachment; filename="${appealExportFileName(deps.now(), query)}"`);
        return c.body(csvStream(APPEAL_CSV_COLUMNS, toRecords(each(items), appealCsvRecord)));
      })

      // An appeal by email, post or phone, entered with its files: the motorist's rules, one key per entry.
      .post('/', async (c) => {
        const key = c.req.header(IDEMPOTENCY_KEY_HEADER)?.trim() ?? '';
        if (!UUID_PATTERN.test(key)) throw new AppError('BAD_REQUEST', SERVER_MESSAGES.idempotencyKeyInvalid);
        checkAppealBodyHeaders(c);
        const user = c.get('user');
        const release = gate.enter(user.id);
        if (!release.ok) {
          throw new AppError(
            release.scope === 'user' ? 'RATE_LIMITED' : 'SERVICE_BUSY',
            release.scope === 'user' ? SERVER_MESSAGES.tooManyUploads : SERVER_MESSAGES.uploadsBusy,
            { headers: { 'Retry-After': String(release.retryAfterSeconds) } },
          );
        }
        const spooled: string[] = [];
        try {
          const form = await readAppealForm(c, deps.config.uploadsDir, spooled, ENTERED_APPEAL_TEXT_FIELDS);
          const appeal = parseWith(enteredAppealInputSchema, form.text);
          const result = await enterAppeal(deps, { idempotencyKey: key.toLowerCase(), appeal, files: form.files, user, now: deps.now() });
          if (result.replayed) c.header('Idempotent-Replayed', 'true');
          return ok(c, 'POST /appeals', await viewAppealRow(deps, result.appeal), { status: 201 });
        } finally {
          release.leave();
          await discardSpooledFiles(spooled);
        }
      })

      .get('/:id', async (c) => {
        return ok(c, 'GET /appeals/:id', await viewAppeal(deps, c.req.param('id')));
      })

      .post('/:id/decision', async (c) => {
        const decision = await readJson(c, appealDecisionInputSchema);
        const row = await decideAppeal(deps, { appealId: c.req.param('id'), decision, user: c.get('user'), now: deps.now() });
        return ok(c, 'POST /appeals/:id/decision', await viewAppealRow(deps, row));
      })

      // What the decision would record and send, before it is: the same checks, nothing written.
      .post('/:id/decision-preview', async (c) => {
        const decision = await readJson(c, appealDecisionInputSchema);
        const preview = await previewAppealDecision(deps, { appealId: c.req.param('id'), decision, user: c.get('user'), now: deps.now() });
        return ok(c, 'POST /appeals/:id/decision-preview', preview);
      })

      .post('/:id/consider', async (c) => {
        const row = await considerLateAppeal(deps, { appealId: c.req.param('id'), user: c.get('user'), now: deps.now() });
        return ok(c, 'POST /appeals/:id/consider', await viewAppealRow(deps, row));
      })

      .post('/:id/set-aside', async (c) => {
        const { reason } = await readJson(c, setAsideAppealInputSchema);
        const setAside = await setAsideAppeal(deps, { appealId: c.req.param('id'), reason, user: c.get('user'), now: deps.now() });
        return ok(c, 'POST /appeals/:id/set-aside', setAside);
      })

      .get('/:id/letter', async (c) => {
        const { bytes, fileName } = await appealLetterOf(deps, c.req.param('id'), deps.now());
        return c.body(new Uint8Array(bytes), 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${fileName}"`,
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
        });
      })

      // The motorist's files, to admins only, as the type their bytes were found to be; never inline
      // for a PDF (a browser's viewer runs in our origin), and never to the public.
      .get('/:id/attachments/:attachmentId', async (c) => {
        const { attachment, file } = await openAppealAttachment(deps, c.req.param('id'), c.req.param('attachmentId'));
        const isImage = attachment.mime_type.startsWith('image/');
        return new Response(file.stream, {
          status: 200,
          headers: {
            'Content-Type': attachment.mime_type,
            'Content-Length': String(file.size),
            'X-Content-Type-Options': 'nosniff',
            'Cache-Control': 'no-store',
            'Content-Disposition': isImage ? 'inline' : `attachment; filename="attachment-${attachment.position + 1}.pdf"`,
            'Content-Security-Policy': SANDBOXED_FILE_POLICY,
          },
        });
      })
  );
}
