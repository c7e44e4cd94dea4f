import { Hono } from 'hono';
import { pcnFieldsSchema, updatePcnFieldsSchema } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { pcnUploadLimit, readDeviceTime, readIdempotencyKey, readPcnForm } from '../http/pcn-form.ts';
import { ok } from '../http/respond.ts';
import { parseWith } from '../http/validation.ts';
import { viewerOf } from '../http/viewer.ts';
import { createUploadGate } from '../services/upload-gate.ts';
import { changePcn } from '../workflows/change-pcn.ts';
import { deletePcn } from '../workflows/delete-pcn.ts';
import { filePcn } from '../workflows/file-pcn.ts';
import { findChangeablePcn } from '../workflows/pcn-access.ts';
import type { EvidenceDeps } from '../workflows/pcn-evidence.ts';
import { openPcn, viewPcnById, viewPcnRow } from '../workflows/pcn-view.ts';

/** An officer's notice: filed with its photos (multipart), read, changed and deleted. */
export function createPcnFilingRoutes(deps: AppDeps) {
  const uploadsDir = deps.config.uploadsDir;
  const evidenceDeps: EvidenceDeps = { db: deps.db, evidence: deps.evidence, logger: deps.logger, jobs: deps.jobs };
  const uploadBodyLimit = pcnUploadLimit(deps.uploadGate ?? createUploadGate());

  return new Hono<AppEnv>()
    .get('/:id', async (c) => ok(c, 'GET /pcns/:id', await openPcn(deps, viewerOf(c), c.req.param('id'))))

    .post('/', uploadBodyLimit, async (c) => {
      const receivedAt = deps.now();
      const idempotencyKey = readIdempotencyKey(c);
      const deviceTime = readDeviceTime(c);
      const form = await readPcnForm(c, uploadsDir);
      const fields = parseWith(pcnFieldsSchema, form.text);
      const filed = await filePcn(evidenceDeps, {
        actor: c.get('user'),
        idempotencyKey,
        fields,
        photos: form,
        deviceTime,
        receivedAt,
      });
      deps.metrics.outboxUploads.inc({ kind: 'notice', outcome: filed.replayed ? 'replayed' : 'stored' });
      if (filed.replayed) {
        c.header('Idempotent-Replayed', 'true');
        return ok(c, 'POST /pcns', await viewPcnRow(deps, filed.row, viewerOf(c), { withHistory: true }), { status: 201 });
      }
      return ok(c, 'POST /pcns', await viewPcnById(deps, filed.pcnId, viewerOf(c)), { status: 201 });
    })

    .put('/:id', uploadBodyLimit, async (c) => {
      const user = c.get('user');
      const receivedAt = deps.now();
      const id = c.req.param('id');
      // Refused before the body is read: a PCN the caller may not change takes no upload.
      const row = await findChangeablePcn(deps.db, user, id);

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
      return ok(c, 'PUT /pcns/:id', await viewPcnById(deps, id, viewerOf(c)));
    })

    .delete('/:id', async (c) => {
      const id = c.req.param('id');
      await deletePcn(evidenceDeps, { pcnId: id, actor: c.get('user'), now: deps.now() });
      return ok(c, 'DELETE /pcns/:id', { id });
    });
}
