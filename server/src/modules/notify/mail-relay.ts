import nodemailer from 'nodemailer';
import { writeWaitingEmails } from './outbox-writer';
import { notifyRepository } from './repository';
import type { Db } from '../../db/client';

/**
 * With SMTP_URL set, emails written to the outbox are handed to that SMTP server. The outbox row
 * is written in the same transaction as the change that causes it, so no email is lost when the
 * process dies; the relay sends what is not sent yet, oldest first, and marks it sent. Each
 * replica runs a relay; FOR UPDATE SKIP LOCKED gives each email to one of them. A failure is
 * counted and retried on the next run, up to MAX_ATTEMPTS.
 */
export const MAX_ATTEMPTS = 10;
/** How much of a failure's message is kept on the row. */
const LAST_ERROR_MAX = 500;
/** An email as handed to SMTP: the text and, beside it, the HTML part (multipart/alternative). */
export type MailTransport = {
  sendMail(message: { from: string; to: string; subject: string; text: string; html?: string }): Promise<unknown>;
};

export function smtpTransport(smtpUrl: string): MailTransport {
  return nodemailer.createTransport(smtpUrl);
}

/** Sends up to `limit` waiting emails; returns how many went out. */
export async function relayMail(db: Db, transport: MailTransport, from: string, limit = 20): Promise<number> {
  // Emails kept as templates are written first (outbox-writer.ts); one still unwritten waits for the next run.
  await writeWaitingEmails(db);
  return db.transaction(async (tx) => {
    const waiting = await notifyRepository.lockWaitingEmails(tx, limit, MAX_ATTEMPTS);
    let sent = 0;
    for (const message of waiting) {
      try {
        // An email written before it had an HTML part goes out as text only.
        await transport.sendMail({
          from,
          to: message.recipient,
          subject: message.subject ?? '',
          text: message.body ?? '',
          ...(message.html ? { html: message.html } : {}),
        });
        await notifyRepository.markSent(tx, message.id);
        sent++;
      } catch (error) {
        await notifyRepository.countFailedAttempt(
          tx,
          message.id,
          String((error as Error).message).slice(0, LAST_ERROR_MAX),
        );
      }
    }
    return sent;
  });
}
