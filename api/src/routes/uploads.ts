import { Hono } from 'hono';
import { SERVER_MESSAGES } from '@parkpatrol/shared';
import type { AppDeps, AppEnv } from '../app-env.ts';
import { requireAuth } from '../auth/middleware.ts';
import { canViewPcn } from '../domain/pcn-rules.ts';
import { AppError } from '../http/app-error.ts';
import { findImageByFileName } from '../repositories/pcns.ts';
import { isEvidenceFileName } from '../services/evidence-storage.ts';
import { isValidUploadSignature } from '../services/upload-urls.ts';

/**
 * Evidence photos. Served only to someone allowed to see the PCN: through the signed,
 * expiring URL that GET /pcns/{id} hands out (an <img> cannot send a bearer header), or with
 * the bearer token of the owner or an admin.
 */
export function createUploadRoutes(deps: AppDeps) {
  const authenticate = requireAuth(deps);

  return new Hono<AppEnv>().get('/:fileName', async (c) => {
    const fileName = c.req.param('fileName');
    // The name must be one we could have made before it goes anywhere near the database or
    // the file system: this is what turns `..`, %2F and friends into a plain 404.
    if (!isEvidenceFileName(fileName)) throw notFound();
    const image = await findImageByFileName(deps.db, fileName);
    if (!image) throw notFound();

    const { exp, sig } = c.req.query();
    const isSigned = isValidUploadSignature(deps.config.jwtSecret, fileName, exp, sig, deps.now());
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

    const file = await deps.evidence.open(fileName);
    if (!file) throw notFound();
    return new Response(file.stream, {
      status: 200,
      headers: {
        'Content-Type': image.mimeType,
        'Content-Length': String(file.size),
        'X-Content-Type-Options': 'nosniff',
        // Names are random and content never changes; private because it is personal data.
        'Cache-Control': 'private, max-age=31536000, immutable',
        'Content-Disposition': 'inline',
      },
    });
  });
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', SERVER_MESSAGES.notFound);
}
