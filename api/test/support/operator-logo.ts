import { OPERATOR_LOGO_FIELD } from '@parkpatrol/shared';
import type { TestApp } from '../test-app.ts';

/** The logo upload's form: one file under the logo's field, with whatever name and declared type. */
export function logoForm(bytes: Uint8Array, name = 'logo.jpg', type = 'image/jpeg'): FormData {
  const form = new FormData();
  form.append(OPERATOR_LOGO_FIELD, new Blob([bytes], { type }), name);
  return form;
}

/** Sets the operator's logo as an admin does; the logo's public address under /api. */
export async function setOperatorLogo(t: TestApp, adminToken: string, bytes: Uint8Array): Promise<string> {
  const res = await t.request('PUT', '/settings/operator/logo', { token: adminToken, body: logoForm(bytes) });
  if (res.status !== 200) throw new Error(`the logo was refused: ${res.status} ${res.text}`);
  return (res.json.data.logoUrl as string).replace(/^\/api/, '');
}
