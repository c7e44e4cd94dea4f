import { apiPath, type ApiResponseOf, type PublicOperator } from '@parkpatrol/shared';
import { API_URL } from '../../config/env.ts';

const ROUTE = 'GET /public/charges/operator';

/**
 * Whose charges /charge looks up, for the top of the lookup before any charge is found: their
 * name and logo. A plain request on the contract's route, not through the API client: the
 * lookup's first visit, often on a poor link from a notice's QR code, carries none of it until
 * Find is pressed. Nothing named when it cannot be read: the page then names no one rather than
 * showing an error.
 */
export async function fetchPublicOperator(): Promise<PublicOperator> {
  const none: PublicOperator = { name: null, logoUrl: null };
  try {
    const answer = await fetch(`${API_URL}${apiPath(ROUTE, {})}`, { headers: { accept: 'application/json' }, credentials: 'omit' });
    if (!answer.ok) return none;
    const body = (await answer.json()) as { data?: ApiResponseOf<typeof ROUTE> };
    return { name: body.data?.name ?? null, logoUrl: body.data?.logoUrl ?? null };
  } catch {
    return none;
  }
}
