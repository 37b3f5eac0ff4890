/**
 * The channels a message travels by (the outbox's `channel`): email, SMS, a letter by post, a bank
 * transfer (the payment reason of a verification transfer, or a simulated SEPA payout), and
 * `chain` (a payout the simulated chain broadcast, local mode). One list for the type and the
 * database's check constraint.
 */
export const MESSAGE_CHANNELS = ['email', 'sms', 'post', 'bank', 'chain'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];
/** Emails the outbox keeps as a template until they are written (server/src/modules/notify/outbox-writer.ts). */
export const MAIL_TEMPLATES = ['orderPlaced'] as const;
export type MailTemplate = (typeof MAIL_TEMPLATES)[number];
