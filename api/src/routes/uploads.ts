import { Hono, type Context } from 'hono';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAuth } from '../auth/middleware.ts';
import { canViewPcn } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { findEvidenceImage } from '../workflows/evidence-image.ts';
import { isEvidenceFileName } from '../services/evidence-storage.ts';
import { CHARGE_PHOTO_SESSION_PREFIX, verifyUploadSignature } from '../services/upload-urls.ts';
import { isPublicChargeStatus } from '../domain/public-charge.ts';
import { isSessionLive } from '../auth/refresh-tokens.ts';
import { openThumbnail } from '../workflows/open-thumbnail.ts';

/**
 * Evidence photos. Served only to someone allowed to see the PCN: through the signed,
 * expiring URL that GET /pcns/{id} hands out (an <img> cannot send a bearer header), or with
 * the bearer token of the owner or an admin.
 */
export function createUploadRoutes(deps: AppDeps) {
  const authenticate = requireAuth(deps);

  /** The photo named in the path, once the caller has shown they may see it (else the one 404). */
  async function authorizedImage(c: Context<AppEnv>) {
    const fileName = c.req.param('fileName') ?? '';
    // The name must be one we could have made before it goes anywhere near the database or
    // the file system: this is what turns `..`, %2F and friends into a plain 404.
    if (!isEvidenceFileName(fileName)) throw notFound();
    const image = await findEvidenceImage(deps, fileName);
    if (!image) throw notFound();

    const signedFor = verifyUploadSignature(deps.config.jwtSecret, fileName, c.req.query(), deps.now());
    // A URL lives only as long as the session it was handed to (signed out, deactivated: dead);
    // a motorist's names the charge, and opens only that charge's photos while it is public.
    const isSigned =
      signedFor !== null &&
      (signedFor.startsWith(CHARGE_PHOTO_SESSION_PREFIX)
        ? signedFor === `${CHARGE_PHOTO_SESSION_PREFIX}${image.pcnId}` && isPublicChargeStatus(image.status)
        : await isSessionLive(deps.db, signedFor));
    if (!isSigned) {
      // Decision 0004: without a valid signature or the token of someone allowed to see the
      // PCN, the answer is the same 404 as for a name that does not exist, so nobody learns
      // which names are real.
      if (!c.req.header('authorization')) throw notFound();
      try {
        await authenticate(c, async () => {});
      } catch {
        throw notFound();
      }
      if (!canViewPcn(c.get('user'), { createdBy: image.createdBy, status: image.status })) throw notFound();
    }
    return { fileName, mimeType: image.mimeType };
  }

  return new Hono<AppEnv>()
    .get('/:fileName', async (c) => {
      const image = await authorizedImage(c);
      const file = await deps.evidence.open(image.fileName);
      if (!file) throw notFound();
      return evidenceResponse(file.stream, file.size, image.mimeType);
    })
    .get('/:fileName/thumbnail', async (c) => {
      const image = await authorizedImage(c);
      const thumbnail = await openThumbnail(deps, image);
      if (!thumbnail) throw notFound();
      return evidenceResponse(thumbnail.body, thumbnail.size, thumbnail.mimeType);
    });
}

function evidenceResponse(body: ReadableStream<Uint8Array> | Uint8Array<ArrayBuffer>, size: number, mimeType: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': mimeType,
      'Content-Length': String(size),
      'X-Content-Type-Options': 'nosniff',
      // Personal data: never kept in the browser's HTTP cache, where it would outlive a
      // sign-out on a shared phone. The officer app keeps what it needs offline in its own
      // cache, which sign-out clears (EVIDENCE_CACHE_NAME).
      'Cache-Control': 'private, no-store',
      'Content-Disposition': 'inline',
    },
  });
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
}
