import { randomUUID } from 'node:crypto';
import { IDEMPOTENCY_KEY_HEADER } from '@parkpatrol/shared';
import { signChargeToken } from '../../src/auth/charge-token.ts';
import { jpegUpload, type Upload } from '../fixtures.ts';
import type { TestApp } from '../test-app.ts';

/** A small, real PDF's first bytes are all the server sniffs; the rest makes it a whole file. */
export function pdfUpload(name = 'receipt.pdf'): Upload {
  const text =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';
  return { bytes: new TextEncoder().encode(text), name, type: 'application/pdf' };
}

export const VALID_APPEAL = {
  name: 'Dana Driver',
  email: 'dana@example.com',
  address: '4 Mill Lane\nLeeds\nLS1 4AB',
  wasDriver: 'yes',
  reason: 'VALID_PERMIT',
  text: 'I had a valid permit on the dashboard; a photo of it is attached.',
};

export function appealForm(fields: Record<string, string> = {}, files: Upload[] = [jpegUpload(31)]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries({ ...VALID_APPEAL, ...fields })) form.append(name, value);
  for (const file of files)
    form.append('attachments', new Blob([file.bytes], { type: file.type ?? 'image/jpeg' }), file.name ?? 'photo.jpg');
  return form;
}

/**
 * The motorist's token for a charge, as the lookup signs it (the lookup itself, and its limits per
 * address, are public-charges.test.ts's).
 */
export function chargeToken(t: TestApp, pcnId: string): string {
  return signChargeToken(t.deps.config.jwtSecret, pcnId, t.deps.now()).token;
}

/** An appeal that came by post, as an admin enters it: the motorist's fields, the charge, how and when. */
export function enteredAppealForm(
  fields: { pcnId: string; receivedOn: string } & Record<string, string>,
  files: Upload[] = [pdfUpload('letter.pdf')],
): FormData {
  return appealForm({ channel: 'POST', ...fields }, files);
}

/** POST /appeals with the admin's token and a fresh key unless one is given. */
export function enterAppeal(t: TestApp, token: string, form: FormData, key: string = randomUUID()) {
  return t.request('POST', '/appeals', { body: form, token, headers: { [IDEMPOTENCY_KEY_HEADER]: key } });
}

export function sendAppeal(t: TestApp, token: string, form: FormData, key: string = randomUUID()) {
  return t.request('POST', '/public/charges/current/appeal', {
    body: form,
    headers: { authorization: `Bearer ${token}`, [IDEMPOTENCY_KEY_HEADER]: key },
  });
}
