import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PublicOperator } from '@parkpatrol/shared';
import { validOperatorTerms } from './fixtures.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/** The name at the top of /charge, before any charge is found: no sign-in, the creditor as the settings now name it. */
describe('GET /public/charges/operator', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('names no one before Operator Settings are saved, then the creditor as saved, and nothing else of the settings', async () => {
    const before = await t.request('GET', '/public/charges/operator');
    expect(before.status).toBe(200);
    expect(before.json.data as PublicOperator).toEqual({ name: null, logoUrl: null });

    const superAdmin = await t.signedInUser('SUPER_ADMIN');
    const saved = await t.request('PUT', '/settings/operator', {
      token: superAdmin.token,
      json: validOperatorTerms({ creditorName: 'Northgate Parking Ltd' }),
    });
    expect(saved.status, saved.text).toBe(200);

    const after = await t.request('GET', '/public/charges/operator');
    expect(after.json.data as PublicOperator).toEqual({ name: 'Northgate Parking Ltd', logoUrl: null });
  });
});
