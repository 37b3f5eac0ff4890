import { emailKey } from '#domain/email';
import { orderPlacedMail, type OrderPlacedParams } from './order-placed';
import { notifyRepository } from './repository';
import { phrasesOfRecipients, withPhrase, type EmailParts } from './service';
import type { OutboxMessage } from '#domain/contracts/ops';
import type { MailTemplate } from '#domain/messages';
import type { Db } from '../../db/client';

/**
 * Emails written after the transaction that sends them (issue 36). A placement keeps its
 * confirmation email in the outbox as a template and what it is written from (a few hundred
 * bytes), in the same transaction as the order, so neither is lost without the other; writing the
 * email (about ten thousand bytes of text and HTML, with the account's anti-phishing phrase) is
 * left to the writer, off the customer's request. It runs in the background every second, and
 * before anything reads the outbox (the mail relay, the outbox list, the local mailbox), so no
 * reader ever meets an email that is not written yet.
 */

/** What each template is written from. */
export type TemplateParams = { orderPlaced: OrderPlacedParams };

/** Keeps an email as a template (`template`, `params`) for the writer to write, in the caller's transaction. */
export async function sendLater<T extends MailTemplate>(
  db: Db,
  email: { recipient: string; accountId?: string | null; template: T; params: TemplateParams[T] },
): Promise<void> {
  await notifyRepository.insert(db, {
    channel: 'email',
    recipient: email.recipient,
    accountId: email.accountId ?? null,
    template: email.template,
    params: email.params,
  });
}

/** The email a template gives. */
function written(template: MailTemplate, params: unknown): EmailParts {
  switch (template) {
    case 'orderPlaced': {
      const { language, order, bank, link, expiryDays, placedAt } = params as OrderPlacedParams;
      return orderPlacedMail(language, order, bank, { link, expiryDays, now: new Date(placedAt) });
    }
  }
}

/**
 * How many kept emails one batch writes: writing is synchronous work on the event loop (about
 * 0.2 ms an email), so a batch of 200 held requests up for 40 ms (bench:orders' p99 went from 22 to
 * 50 ms); 20 keep it to a few milliseconds, and a run goes on batch after batch.
 */
const WRITE_BATCH = 20;

/**
 * Writes the emails kept as templates, oldest first, each with the phrase of the account its
 * address belongs to; returns how many. `wait`: a reader about to list the outbox waits for rows
 * another writer holds (and then finds them written) rather than skipping them.
 */
export async function writeWaitingEmails(db: Db, { wait = false } = {}): Promise<number> {
  return db.transaction(async (tx) => {
    const waiting = await notifyRepository.lockUnwritten(tx, WRITE_BATCH, !wait);
    if (waiting.length === 0) return 0;
    // One query for the phrases of the batch, one statement to store it.
    const phrases = await phrasesOfRecipients(
      tx,
      waiting.map((row) => row.recipient),
    );
    await notifyRepository.markWritten(
      tx,
      waiting.map((row) => {
        const parts = written(row.template!, row.params);
        const { body, html } = withPhrase(parts.language, phrases.get(emailKey(row.recipient)), parts);
        return { id: row.id, subject: parts.subject, body, html };
      }),
    );
    return waiting.length;
  });
}

/** Writes every email kept as a template, a batch at a time, until none is left; returns how many. */
export async function writeAllWaitingEmails(db: Db, options: { wait?: boolean } = {}): Promise<number> {
  let total = 0;
  for (let written = WRITE_BATCH; written === WRITE_BATCH; total += written)
    written = await writeWaitingEmails(db, options);
  return total;
}

/** How many messages the outbox list shows at most. */
const OUTBOX_LIST_LIMIT = 500;

/** `GET /api/ops/outbox` and the local mailbox: the messages sent, newest first (domain/contracts/ops.ts). */
export async function listOutbox(db: Db, recipient?: string): Promise<OutboxMessage[]> {
  await writeAllWaitingEmails(db, { wait: true });
  const rows = await notifyRepository.list(db, OUTBOX_LIST_LIMIT, recipient ? recipient.trim() : undefined);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}
