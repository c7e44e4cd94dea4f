import { ADMIN, expect, signIn, test } from './fixtures.ts';
import { apiToken, bearer, createUserThroughApi, uniqueSuffix } from './admin-support.ts';

test('a bulk deactivation can be undone from its results, and the users are active again', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name === 'phone', 'the same screen; one width is enough');
  const token = await apiToken(request, ADMIN);
  const suffix = uniqueSuffix().toLowerCase();
  const users: Array<{ id: string }> = [];
  for (const name of ['Ula', 'Una']) {
    users.push(
      await createUserThroughApi(request, token, {
        firstName: name,
        lastName: `Undo${suffix}`,
        email: `${name.toLowerCase()}.${suffix}@example.com`,
      }),
    );
  }

  await signIn(page, ADMIN);
  await page.goto(`/admin/users?search=${suffix}`);
  const rows = page.getByRole('row').filter({ hasText: `Undo${suffix}` });
  await expect(rows).toHaveCount(2);
  for (const row of await rows.all()) await row.locator('label.checkbox').click();
  await page.getByRole('button', { name: 'Deactivate…' }).click();
  await page.getByRole('button', { name: 'Deactivate 2 users' }).click();

  const results = page.getByRole('region', { name: 'Deactivation results' });
  await expect(results).toBeVisible();
  await expect(rows.filter({ hasText: 'Inactive' })).toHaveCount(2);
  await results.getByRole('button', { name: 'Undo deactivation' }).click();

  await expect(page.getByText('Undone: 2 users activated again.')).toBeVisible();
  await expect(results).toBeHidden();
  await expect(rows.filter({ hasText: 'Inactive' })).toHaveCount(0);
  const listed = (await (await request.get(`/api/users?search=${suffix}`, { headers: bearer(token) })).json()) as {
    data: { users: Array<{ id: string; isActive: boolean }> };
  };
  expect(listed.data.users.filter((user) => users.some((made) => made.id === user.id)).map((user) => user.isActive)).toEqual([true, true]);
});
