import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { ACCESS_QR_CID, buildOnboardingEmail, type OnboardingEmailInput } from './onboarding-email.ts';

const accessUrl = 'https://tickets.example.com/u/abcDEF123_-xyz';

function input(overrides: Partial<OnboardingEmailInput> = {}): OnboardingEmailInput {
  return {
    productName: 'ParkPatrol',
    appUrl: 'https://tickets.example.com',
    accessUrl,
    expiresAt: new Date('2026-03-08T14:05:00.000Z'),
    recipient: { firstName: 'Olive', lastName: 'Officer', email: 'olive@example.com', role: 'USER' },
    carParks: [],
    sentBy: { firstName: 'Ada', lastName: 'Admin', email: 'ada@example.com' },
    ...overrides,
  };
}

describe('buildOnboardingEmail', () => {
  it('refers to the QR code by cid, never as a data: URL, and the PNG decodes to the access URL', async () => {
    const email = await buildOnboardingEmail(input());
    expect(email.subject).toBe('Welcome to ParkPatrol Self Ticketing');
    expect(email.html).toContain(`<img src="cid:${ACCESS_QR_CID}"`);
    expect(email.html).not.toContain('data:');
    expect(email.attachments).toHaveLength(1);
    const [qr] = email.attachments;
    expect(qr).toMatchObject({ cid: ACCESS_QR_CID, contentType: 'image/png', filename: 'access-link-qr.png' });
    const png = PNG.sync.read(qr!.content);
    expect(jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data).toBe(accessUrl);
    expect(email.text).toContain(accessUrl);
    expect(email.text).toContain('expires on 8 March 2026 at 14:05 UTC');
  });

  it('escapes every typed text in the HTML and keeps it readable in the text part', async () => {
    const email = await buildOnboardingEmail(
      input({
        recipient: { firstName: '<img onerror=x>', lastName: 'O"Neil', email: 'olive@example.com', role: 'USER' },
        carParks: [{ name: 'A & B <Yard>', siteCode: 'AB1', address: '1 <High> St', postcode: 'AB1 2CD' }],
        adminNotes: '<script>alert(1)</script>\nline two',
        sentBy: { firstName: 'Ada', lastName: '<i>Admin</i>', email: 'ada@example.com' },
      }),
    );
    expect(email.html).not.toMatch(/<script|<img onerror|<i>/);
    expect(email.html).toContain('&lt;img onerror=x&gt;');
    expect(email.html).toContain('O&quot;Neil');
    expect(email.html).toContain('A &amp; B &lt;Yard&gt; (AB1)');
    expect(email.html).toContain('1 &lt;High&gt; St, AB1 2CD');
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;<br>line two');
    expect(email.html).toContain('A note from Ada &lt;i&gt;Admin&lt;/i&gt;');
    expect(email.text).toContain('<script>alert(1)</script>');
    expect(email.text).toContain('  line two');
  });

  it('lists the admin features only for admin accounts', async () => {
    const officer = await buildOnboardingEmail(input());
    const admin = await buildOnboardingEmail(
      input({ recipient: { firstName: 'Ada', lastName: 'Admin', email: 'a@example.com', role: 'ADMIN' } }),
    );
    expect(officer.text).not.toContain('Manage users and car parks');
    expect(admin.text).toContain('Manage users and car parks');
    expect(admin.text).toContain('Role:  Admin');
  });
});
