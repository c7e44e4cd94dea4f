import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jsQR from 'jsqr';
import { simpleParser, type ParsedMail } from 'mailparser';
import { PNG } from 'pngjs';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on loopback for the browser tests: the API sends through it as it would
 * through a relay, and every message lands as a raw .eml file in one folder, numbered in order
 * of arrival. Global setup starts it; tests read the folder (PP_MAIL_DIR).
 */
export async function startMailSink(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('error', (error) => callback(error));
      stream.on('end', () => {
        count += 1;
        // Written under a temporary name and renamed, so a reader never sees half a message.
        const name = `${String(count).padStart(5, '0')}.eml`;
        const partial = join(dir, `.${name}.part`);
        writeFileSync(partial, Buffer.concat(chunks));
        renameSync(partial, join(dir, name));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `smtp://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function mailDir(): string {
  const dir = process.env.PP_MAIL_DIR;
  if (!dir) throw new Error('PP_MAIL_DIR is not set: run through playwright.config.ts (global setup starts the SMTP server)');
  return dir;
}

function recipientsOf(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? '').toLowerCase()));
}

/** Every message received so far to `to`, oldest first. */
export async function readEmailsTo(to: string): Promise<ParsedMail[]> {
  const dir = mailDir();
  const files = readdirSync(dir)
    .filter((name) => name.endsWith('.eml'))
    .sort();
  const mails = await Promise.all(files.map((name) => simpleParser(readFileSync(join(dir, name)))));
  return mails.filter((mail) => recipientsOf(mail).includes(to.toLowerCase()));
}

/** Waits for message number `count` (1-based) to `to`, and returns it. */
export async function waitForEmailTo(
  to: string,
  options: { count?: number; subject?: RegExp; timeoutMs?: number } = {},
): Promise<ParsedMail> {
  const { count = 1, subject, timeoutMs = 15_000 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await readEmailsTo(to)).filter((mail) => !subject || subject.test(mail.subject ?? ''));
    if (mails.length >= count) return mails[count - 1]!;
    if (Date.now() > deadline) throw new Error(`email ${count} to ${to} did not arrive within ${timeoutMs} ms (have ${mails.length})`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** The text a PNG QR code encodes, read from the email's inline image. */
export function decodeQrAttachment(mail: ParsedMail): string {
  const image = mail.attachments.find((a) => a.contentType === 'image/png');
  if (!image) throw new Error(`no PNG attachment in "${mail.subject}"`);
  const png = PNG.sync.read(image.content);
  const code = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
  if (!code) throw new Error('the QR code in the email could not be decoded');
  return code.data;
}
