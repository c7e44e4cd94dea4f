import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Db } from '../db/database.ts';
import type { Logger } from './logger.ts';

export type MailAttachment = { filename: string; content: Buffer; contentType: string; cid?: string };
export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  purpose: 'password-reset' | 'onboarding' | string;
  userId?: string | null;
};
export type MailResult = { id: string; status: 'sent' | 'written' };
export type Mailer = { send: (message: MailMessage) => Promise<MailResult> };

/**
 * Sends through SMTP_URL when set; otherwise writes each message as an .eml file under the
 * outbox folder and logs its path, so a fresh clone can read its own emails. Every message is
 * recorded in the emails table with its outcome; a failure is recorded, then thrown.
 */
export function createMailer(options: { db: Db; smtpUrl: string | undefined; outboxDir: string; from: string; logger: Logger }): Mailer {
  const { db, smtpUrl, outboxDir, from, logger } = options;
  const transport: Transporter = smtpUrl
    ? nodemailer.createTransport(smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  return {
    async send(message) {
      const id = randomUUID();
      const now = new Date().toISOString();
      await db
        .insertInto('emails')
        .values({
          id,
          to_address: message.to,
          subject: message.subject,
          purpose: message.purpose,
          user_id: message.userId ?? null,
          status: 'failed',
          error: 'not sent yet',
          location: null,
          created_at: now,
          sent_at: null,
        })
        .execute();
      try {
        const info = await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          attachments: message.attachments,
        });
        let status: MailResult['status'] = 'sent';
        let location: string | null = null;
        if (!smtpUrl) {
          // The files hold live reset and access links: readable by the server's user only.
          mkdirSync(outboxDir, { recursive: true, mode: 0o700 });
          location = join(outboxDir, `${now.replace(/[:.]/g, '-')}-${id}.eml`);
          writeFileSync(location, info.message as Buffer, { mode: 0o600 });
          status = 'written';
          logger.info('email written to outbox', { purpose: message.purpose, file: location });
        }
        await db
          .updateTable('emails')
          .set({ status, error: null, location, sent_at: new Date().toISOString() })
          .where('id', '=', id)
          .execute();
        return { id, status };
      } catch (err) {
        const reason = err instanceof Error ? err.message : String(err);
        await db.updateTable('emails').set({ status: 'failed', error: reason }).where('id', '=', id).execute();
        logger.warn('email failed', { purpose: message.purpose, emailId: id, reason });
        throw err;
      }
    },
  };
}

/** Escapes user-supplied text for HTML email bodies. */
export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
