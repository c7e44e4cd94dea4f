import QRCode from 'qrcode';
import { isAdminRole, isLandownerRole, productTitle, ROLE_LABELS, type Role } from '@parkpatrol/shared';
import { escapeHtml, type MailAttachment } from './mail.ts';

export type OnboardingEmailInput = {
  productName: string;
  appUrl: string;
  /** The single-use sign-in link; it is a credential, so it only ever goes into the email. */
  accessUrl: string;
  expiresAt: Date;
  recipient: { firstName: string; lastName: string; email: string; role: Role };
  carParks: ReadonlyArray<{ name: string; siteCode: string; address: string; postcode: string }>;
  adminNotes?: string | undefined;
  sentBy: { firstName: string; lastName: string; email: string };
};

export type OnboardingEmail = { subject: string; text: string; html: string; attachments: MailAttachment[] };

/** Content-ID of the QR image; the HTML refers to it as cid:, which mail clients show inline. */
export const ACCESS_QR_CID = 'access-link-qr@parkpatrol';
export const ACCESS_QR_FILENAME = 'access-link-qr.png';

const OFFICER_FEATURES = [
  'Record parking charge notices on your phone in four short steps, with photos as evidence',
  'Keep working without signal: notices are saved on your device and sent as soon as you are back online',
  'Follow each notice from submission through review to payment',
  'See your own figures and most recent notices on the dashboard',
  'Add the app to your home screen and open it like any other app',
];
const ADMIN_FEATURES = [
  'Review notices and move them through their statuses, with notes kept in the history',
  'Manage users and car parks, and assign officers to car parks',
  'Send onboarding emails and follow activity on the analytics dashboard',
];
const LANDOWNER_FEATURES = [
  'See the parking charges issued at your car parks and where each stands (the motorists stay private)',
  'Keep your permit list up to date: staff, residents, visitors and contractors',
  'Ask for a charge to be cancelled, with your reason; the operator decides and tells you why',
  'Read, download and print the monthly report of each car park',
];

/** What the email says a role can do: a landowner's screens are their own (decision 0042). */
function featuresOf(role: Role): string[] {
  if (isLandownerRole(role)) return LANDOWNER_FEATURES;
  return isAdminRole(role) ? [...OFFICER_FEATURES, ...ADMIN_FEATURES] : OFFICER_FEATURES;
}

/**
 * Builds the onboarding email: plain text and HTML with the same content, and the access URL as
 * a QR code PNG attached inline (many mail clients block data: URLs in images). Every text that
 * a person typed (names, car parks, notes) is escaped in the HTML.
 */
export async function buildOnboardingEmail(input: OnboardingEmailInput): Promise<OnboardingEmail> {
  const title = productTitle(input.productName);
  const subject = `Welcome to ${title}`;
  const { recipient, sentBy } = input;
  const fullName = `${recipient.firstName} ${recipient.lastName}`.trim();
  const roleLabel = ROLE_LABELS[recipient.role] ?? recipient.role;
  const features = featuresOf(recipient.role);
  const expiry = formatExpiry(input.expiresAt);
  const adminName = `${sentBy.firstName} ${sentBy.lastName}`.trim();
  const carParks = input.carParks.map((p) => ({
    label: p.siteCode ? `${p.name} (${p.siteCode})` : p.name,
    place: [p.address, p.postcode].filter((part) => part.trim().length > 0).join(', '),
  }));

  const qrPng = await QRCode.toBuffer(input.accessUrl, { type: 'png', errorCorrectionLevel: 'M', margin: 4, width: 280 });

  const text = [
    `Welcome to ${title}, ${recipient.firstName}!`,
    '',
    `An account has been set up for you. You can sign in with the personal link below.`,
    '',
    'Your account',
    `  Name:  ${fullName}`,
    `  Email: ${recipient.email}`,
    `  Role:  ${roleLabel}`,
    '',
    'Your personal access link',
    `  ${input.accessUrl}`,
    `  It works once and expires on ${expiry}. Scan the QR code in this email to open it on your phone.`,
    `  If you have no password yet, you will be asked to choose one. Afterwards sign in at ${input.appUrl}/login.`,
    `  Keep this link to yourself: it signs you in as you.`,
    '',
    'What you can do',
    ...features.map((f) => `  - ${f}`),
    ...(carParks.length > 0 ? ['', 'Your car parks', ...carParks.map((p) => `  - ${p.label}${p.place ? `, ${p.place}` : ''}`)] : []),
    ...(input.adminNotes ? ['', `A note from ${adminName}`, ...input.adminNotes.split(/\r?\n/).map((line) => `  ${line}`)] : []),
    '',
    'Help and support',
    `  Questions about your account or your car parks: contact ${adminName} at ${sentBy.email}.`,
    `  If the link has expired or was already used, ask for a new onboarding email.`,
    `  If you did not expect this email, you can ignore it; the link stops working on its own.`,
    '',
    `${title}`,
  ].join('\n');

  const e = escapeHtml;
  const list = (items: string[]) =>
    `<ul style="margin:8px 0 0;padding-left:20px">${items.map((i) => `<li style="margin:4px 0">${i}</li>`).join('')}</ul>`;
  const section = (heading: string, body: string) => `<h2 style="font-size:17px;margin:24px 0 8px;color:#37474f">${e(heading)}</h2>${body}`;

  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${e(subject)}</title></head>
<body style="margin:0;padding:0;background:#f5f5f5;font-family:Arial,Helvetica,sans-serif;color:#212121;line-height:1.5">
<div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff">
<h1 style="font-size:22px;margin:0 0 16px;color:#c62828">Welcome to ${e(title)}, ${e(recipient.firstName)}!</h1>
<p>An account has been set up for you. You can sign in with the personal link below.</p>
${section(
  'Your account',
  `<table style="border-collapse:collapse">
<tr><td style="padding:2px 16px 2px 0;color:#616161">Name</td><td>${e(fullName)}</td></tr>
<tr><td style="padding:2px 16px 2px 0;color:#616161">Email</td><td>${e(recipient.email)}</td></tr>
<tr><td style="padding:2px 16px 2px 0;color:#616161">Role</td><td>${e(roleLabel)}</td></tr>
</table>`,
)}
${section(
  'Your personal access link',
  `<p><a href="${e(input.accessUrl)}" style="display:inline-block;padding:12px 20px;background:#c62828;color:#ffffff;text-decoration:none;border-radius:8px;font-weight:bold">Open ${e(title)}</a></p>
<p style="word-break:break-all;font-size:13px;color:#616161">${e(input.accessUrl)}</p>
<p>Or scan this code with your phone's camera:</p>
<p><img src="cid:${ACCESS_QR_CID}" width="280" height="280" alt="QR code of your personal access link"></p>
<p>The link works once and expires on ${e(expiry)}. If you have no password yet, you will be asked to choose one. Afterwards sign in at <a href="${e(input.appUrl)}/login">${e(input.appUrl)}/login</a>.</p>
<p><strong>Keep this link to yourself: it signs you in as you.</strong></p>`,
)}
${section('What you can do', list(features.map(e)))}
${carParks.length > 0 ? section('Your car parks', list(carParks.map((p) => `${e(p.label)}${p.place ? `<br><span style="color:#616161">${e(p.place)}</span>` : ''}`))) : ''}
${input.adminNotes ? section(`A note from ${adminName}`, `<p style="padding:12px;background:#eceff1;border-radius:8px">${e(input.adminNotes).replace(/\r?\n/g, '<br>')}</p>`) : ''}
${section(
  'Help and support',
  list([
    `Questions about your account or your car parks: contact ${e(adminName)} at <a href="mailto:${e(sentBy.email)}">${e(sentBy.email)}</a>.`,
    'If the link has expired or was already used, ask for a new onboarding email.',
    'If you did not expect this email, you can ignore it; the link stops working on its own.',
  ]),
)}
<p style="margin-top:32px;font-size:12px;color:#9e9e9e">${e(title)}</p>
</div>
</body>
</html>`;

  return {
    subject,
    text,
    html,
    attachments: [{ filename: ACCESS_QR_FILENAME, content: qrPng, contentType: 'image/png', cid: ACCESS_QR_CID }],
  };
}

/** Expiry in UTC words, e.g. "8 March 2026 at 14:05 UTC"; the reader's time zone is unknown. */
function formatExpiry(date: Date): string {
  const day = date.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });
  const time = date.toLocaleTimeString('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit' });
  return `${day} at ${time} UTC`;
}
