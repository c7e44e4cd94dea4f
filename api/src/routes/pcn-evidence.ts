import { Hono } from 'hono';
import type { PcnAuditResponse } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAdmin } from '../auth/middleware.ts';
import { ok } from '../http/respond.ts';
import { SANDBOXED_FILE_POLICY } from '../http/sandboxed-file.ts';
import { askForEvidencePack, readEvidencePack, readEvidencePackFile } from '../workflows/evidence-packs.ts';
import { readPcnAudit } from '../workflows/pcn-view.ts';
import { listSentDocuments, readSentDocument } from '../workflows/sent-documents.ts';

/** What a notice's case rests on: its audit trail, the evidence pack, and the documents as sent. */
export function createPcnEvidenceRoutes(deps: AppDeps) {
  return (
    new Hono<AppEnv>()
      /**
       * The audit trail, oldest first. The owner sees it as well as admins: everything in it (their
       * fields, photos, the status changes with who made them and the admins' notes) is already
       * shown to them on GET /pcns/{id}, and an officer asked about a notice at appeal needs to
       * show what happened to it. Another USER gets the 404 of a PCN that does not exist. The
       * trail outlives a deleted PCN: admins can still read it by the PCN's id.
       */
      .get('/:id/audit', async (c) => {
        const body: PcnAuditResponse = await readPcnAudit(deps, c.get('user'), c.req.param('id'));
        return ok(c, 'GET /pcns/:id/audit', body);
      })

      /**
       * The evidence pack for an appeal: one PDF with the notice, its timeline, every photo and the
       * audit trail, made by a job (decision 0048). Admins only: it is what the operator sends to
       * the motorist and the appeals service. An officer gets 403 whether or not the PCN exists.
       */
      .post('/:id/evidence-packs', requireAdmin, async (c) => {
        const pack = await askForEvidencePack(deps, { pcnId: c.req.param('id'), user: c.get('user') });
        return ok(c, 'POST /pcns/:id/evidence-packs', pack, { status: 202 });
      })

      .get('/:id/evidence-packs/:packId', requireAdmin, async (c) => {
        return ok(c, 'GET /pcns/:id/evidence-packs/:packId', await readEvidencePack(deps.db, c.req.param('id'), c.req.param('packId')));
      })

      .get('/:id/evidence-packs/:packId/file', requireAdmin, async (c) => {
        const pack = await readEvidencePackFile(deps, c.req.param('id'), c.req.param('packId'));
        return c.body(pack.bytes as Uint8Array<ArrayBuffer>, 200, {
          'Content-Type': 'application/pdf',
          'Content-Disposition': `attachment; filename="${pack.fileName}"`,
          'Repr-Digest': `sha-256=:${Buffer.from(pack.sha256, 'hex').toString('base64')}:`,
          // Personal data: nothing may keep a copy on the way.
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': SANDBOXED_FILE_POLICY,
        });
      })

      // What was sent for this charge, as kept (decision 0025): admins only.
      .get('/:id/documents', async (c) => {
        return ok(c, 'GET /pcns/:id/documents', await listSentDocuments(deps.db, { user: c.get('user'), pcnId: c.req.param('id') }));
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
  );
}
