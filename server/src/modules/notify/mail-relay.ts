import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';

/**
 * With SMTP_URL set, emails written to the outbox are handed to that SMTP server. The outbox row
 * is written in the same transaction as the change that causes it, so no email is lost when the
 * process dies; the relay sends what is not sent yet, oldest first, and marks it sent. Each
 * replica runs a relay; FOR UPDATE SKIP LOCKED gives each email to one of them. A failure is
 * counted and retried on the next run, up to MAX_ATTEMPTS.
 */
export const MAX_ATTEMPTS = 10;
export type MailTransport = { sendMail(message: { from: string; to: string; subject: string; text: string }): Promise<unknown> };

export function smtpTransport(smtpUrl: string): MailTransport {
  return nodemailer.createTransport(smtpUrl);
}

/** Sends up to `limit` waiting emails; returns how many went out. */
export async function relayMail(db: Db, transport: MailTransport, from: string, limit = 20): Promise<number> {
  return db.transaction(async (tx) => {
    const waiting = await tx
      .select()
      .from(outbox)
      .where(and(eq(outbox.channel, 'email'), isNull(outbox.sentAt), lt(outbox.attempts, MAX_ATTEMPTS)))
      .orderBy(asc(outbox.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    let sent = 0;
    for (const message of waiting) {
      try {
        await transport.sendMail({ from, to: message.recipient, subject: message.subject, text: message.body });
        await tx.update(outbox).set({ sentAt: new Date(), lastError: null }).where(eq(outbox.id, message.id));
        sent++;
      } catch (error) {
        await tx
          .update(outbox)
          .set({ attempts: sql`${outbox.attempts} + 1`, lastError: String((error as Error).message).slice(0, 500) })
          .where(eq(outbox.id, message.id));
      }
    }
    return sent;
  });
}
