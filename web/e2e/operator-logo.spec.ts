import sharp from 'sharp';
import { ADMIN, expect, expectNoSeriousAxeViolations, signIn, snap, test } from './fixtures.ts';

/** The operator's logo: chosen in Operator Settings, shown beside the operator's name at the top of /charge. */
test.skip(({ isMobile }) => isMobile, 'Admin screens are desktop first; the phone layout is covered in admin-access.spec.ts');

test("an admin uploads the operator's logo and /charge shows it beside the name", async ({ page }, testInfo) => {
  const logo = await sharp({ create: { width: 600, height: 200, channels: 3, background: { r: 12, g: 80, b: 150 } } })
    .png()
    .toBuffer();

  await signIn(page, ADMIN);
  await page.goto('/admin/settings');
  const card = page.getByRole('region', { name: 'Logo' });
  const file = card.getByLabel('Logo (PNG or JPEG)');
  // A text file named .png is refused by its bytes, the message beside the field.
  await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') });
  await card.getByRole('button', { name: 'Upload logo' }).click();
  await expect(card.getByText('The logo must be a PNG or JPEG picture')).toBeVisible();
  await expect(file).toHaveAttribute('aria-invalid', 'true');

  await file.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
  await card.getByRole('button', { name: 'Upload logo' }).click();
  await expect(card.getByText('Logo saved')).toBeVisible();
  const preview = card.getByRole('img');
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await expectNoSeriousAxeViolations(page, 'Operator Settings with a logo');
  await snap(page, testInfo, 'operator-settings-logo');

  const operator = ((await (await page.request.get('/api/public/charges/operator')).json()) as { data: { name: string; logoUrl: string } })
    .data;
  expect(operator.logoUrl).toMatch(/^\/api\/public\/charges\/operator\/logo\/[0-9a-f]{64}\.png$/);

  await page.goto('/charge');
  const heading = page.getByRole('heading', { level: 1, name: 'Your parking charge' });
  await expect(heading).toBeVisible();
  const top = page.locator('#main .charge-operator');
  await expect(top).toHaveText(operator.name);
  const shown = top.getByRole('img', { name: operator.name });
  await expect(shown).toBeVisible();
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
  // Its box is fixed by its own width and height, whatever the picture's shape.
  expect(await shown.boundingBox()).toMatchObject({ width: 160, height: 60 });
  expect((await shown.boundingBox())!.y).toBeLessThan((await heading.boundingBox())!.y);
  await expectNoSeriousAxeViolations(page, '/charge with the logo');
  await snap(page, testInfo, 'charge-operator-logo');

  // Removed, /charge names the operator alone again.
  await page.goto('/admin/settings');
  await page.getByRole('region', { name: 'Logo' }).getByRole('button', { name: 'Remove logo' }).click();
  await expect(page.getByText('Logo removed')).toBeVisible();
  await page.goto('/charge');
  await expect(page.locator('#main .charge-operator')).toHaveText(operator.name);
  await expect(page.locator('#main .charge-operator img')).toHaveCount(0);
});
