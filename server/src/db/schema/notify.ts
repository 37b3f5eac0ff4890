import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { MAIL_TEMPLATES, MESSAGE_CHANNELS } from '#domain/messages';
import { oneOf } from '../one-of';
import { accounts } from './accounts';

/** The notify module's tables (server/src/modules/notify): every message sent, and the anti-phishing phrase shown in every email. */

/** Every message the product sends (email, SMS, letter, bank transfer reason), as sent. */
export const outbox = pgTable(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: MESSAGE_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    /** Null while an email kept as a template (`template`, `params`) is not written yet (notify/outbox-writer.ts). */
    subject: text('subject'),
    body: text('body'),
    /** Emails: the HTML part sent beside the text `body` (made from it); null for other channels and older emails. */
    html: text('html'),
    /**
     * An email written after its transaction (notify/outbox-writer.ts): which one, and what it is
     * written from. A placement stores these few hundred bytes instead of the email's ten
     * thousand; the writer fills in subject, body and html and clears `params`.
     */
    template: text('template', { enum: MAIL_TEMPLATES }),
    params: jsonb('params'),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** With SMTP_URL: when the mail relay handed the email to the SMTP server; failed tries. */
    sentAt: timestamp('sent_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /**
     * Deleted by the retention job after this date (support messages: 2 years). Null: kept with
     * the records of the account or order it belongs to (AML, at least 5 years).
     */
    retainUntil: timestamp('retain_until', { withTimezone: true }),
  },
  (t) => [
    index('outbox_recipient').on(t.recipient),
    index('outbox_unsent').on(t.channel, t.sentAt, t.createdAt),
    // Only messages with a retention date (support, verification codes), not every order email.
    index('outbox_retain_until')
      .on(t.retainUntil)
      .where(sql`${t.retainUntil} is not null`),
    check('outbox_channel', oneOf(t.channel, MESSAGE_CHANNELS)),
    check('outbox_template', sql`${t.template} is null or ${oneOf(t.template, MAIL_TEMPLATES)}`),
    // A message is written, or kept as a template until it is.
    check(
      'outbox_written',
      sql`(${t.subject} is not null and ${t.body} is not null) or (${t.template} is not null and ${t.params} is not null)`,
    ),
    // The emails still to write: few at any moment, however large the outbox grows.
    index('outbox_unwritten')
      .on(t.createdAt)
      .where(sql`${t.body} is null`),
  ],
);

/**
 * The anti-phishing phrase of an account (issue 19; NFC, domain/protection.ts checkPhrase): every
 * email to the account's address shows it at its top. The messages' own (notify writes every
 * email); protection sets it, under its cool-down rule.
 */
export const antiPhishingPhrases = pgTable('anti_phishing_phrases', {
  accountId: uuid('account_id')
    .primaryKey()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  phrase: text('phrase').notNull(),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});
