import type { APIRequestContext } from '@playwright/test';
import { ENTERED_APPEAL_MULTIPART_FIELDS as FIELDS, ukDate, type Appeal } from '@parkpatrol/shared';
import { bearer } from './admin-support.ts';
import { expect } from './fixtures.ts';

/**
 * An appeal that came by email today, entered by an admin (`POST /api/appeals`, as 'Record an
 * appeal' sends it): no confirmation email to wait for, so a test that only needs an open appeal
 * has one at once. The motorist's words are long enough to fill the appeal's card.
 */
export async function enterAppealThroughApi(
  request: APIRequestContext,
  adminToken: string,
  pcn: { id: string },
  appellant: { name: string; email: string },
): Promise<Appeal> {
  const form = new FormData();
  form.set(FIELDS.pcnId, pcn.id);
  form.set(FIELDS.channel, 'EMAIL');
  form.set(FIELDS.receivedOn, ukDate(new Date()));
  form.set(FIELDS.name, appellant.name);
  form.set(FIELDS.email, appellant.email);
  form.set(FIELDS.address, '12 Wharf Street\nLeeds\nLS2 7EQ');
  form.set(FIELDS.wasDriver, 'yes');
  form.set(FIELDS.reason, 'VALID_PERMIT');
  form.set(
    FIELDS.text,
    [
      'I had a valid permit on the dashboard all day.',
      'It may have slipped under the sun visor when I closed the door, but it was issued to me by the site office.',
      'A copy of the permit and my receipt are with this email. Please cancel the charge.',
    ].join('\n\n'),
  );
  const response = await request.post('/api/appeals', {
    headers: { ...bearer(adminToken), 'Idempotency-Key': crypto.randomUUID() },
    multipart: form,
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: Appeal }).data;
}
