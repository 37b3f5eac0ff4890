import fs from 'node:fs';
import path from 'node:path';
import { defaultLanguage, isLanguage, type Language } from '../../../../domain/languages';
import { notifyRepository } from './repository';
import type { OutboxMessage } from '../../../../domain/contracts/ops';
import type { MessageChannel } from '../../../../domain/messages';
import type englishTexts from '../../../../locales/en/notify.json';
import type { Db } from '../../db/client';

/**
 * Messages to users: email, SMS, a letter by post, the reason of a small bank transfer. Locally
 * every channel is simulated by the outbox table (shown on the dev mailbox page and by
 * `npm run ops -- outbox`); a production deployment adds its SMTP/SMS/post/bank adapters behind
 * `send`. Messages are written in the same transaction as the change that causes them, so a
 * failure loses neither.
 */
export type Message = {
  channel: MessageChannel;
  recipient: string;
  subject: string;
  body: string;
  accountId?: string;
  /** Deleted by the retention job after this date; without it the message is kept with the records. */
  retainUntil?: Date;
};

export async function send(db: Db, message: Message): Promise<void> {
  await notifyRepository.insert(db, { ...message, accountId: message.accountId ?? null, retainUntil: message.retainUntil ?? null });
}

/** Retention: deletes the messages whose retention date has passed; returns how many. */
/**
 * When messages went to a recipient on a channel since then, under a lock on that recipient held
 * until the caller's transaction ends (a limit per recipient counts, then sends, one at a time).
 */
export function lockAndListSentTo(tx: Db, channel: Message['channel'], recipient: string, since: Date): Promise<Date[]> {
  return notifyRepository.lockAndListSentTo(tx, channel, recipient, since);
}

export async function deleteExpiredMessages(db: Db, now = new Date()): Promise<number> {
  return notifyRepository.deleteExpired(db, now);
}

/** How many messages the outbox list shows at most. */
const OUTBOX_LIST_LIMIT = 500;

/** `GET /api/ops/outbox`: the messages sent, newest first (domain/contracts/ops.ts). */
export async function listOutbox(db: Db, recipient?: string): Promise<OutboxMessage[]> {
  const rows = await notifyRepository.list(db, OUTBOX_LIST_LIMIT, recipient ? recipient.trim() : undefined);
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/**
 * Message texts from locales/<language>/notify.json, with {{placeholders}} filled in. Keys are
 * typed from the English file (every language has the same keys: __tests__/locales.test.ts), so
 * a misspelt message or phrase does not compile.
 */
type NotifyTexts = typeof englishTexts;
/** The messages: each has a subject and a body. */
export type MessageKey = { [K in keyof NotifyTexts]: NotifyTexts[K] extends { subject: string; body: string } ? K : never }[keyof NotifyTexts];
/** The groups of phrases put into messages (failure reasons, refunds). */
export type PhraseGroup = Exclude<keyof NotifyTexts, MessageKey>;

const localesDir = path.resolve(__dirname, '../../../../locales');
const cache = new Map<Language, NotifyTexts>();

function textsOf(language: Language): NotifyTexts {
  let texts = cache.get(language);
  if (!texts) {
    texts = JSON.parse(fs.readFileSync(path.join(localesDir, language, 'notify.json'), 'utf8')) as NotifyTexts;
    cache.set(language, texts);
  }
  return texts;
}

export function messageText(language: Language, key: MessageKey, values: Record<string, string>): { subject: string; body: string } {
  const fill = (template: string) => template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
  const entry = textsOf(language)[key];
  return { subject: fill(entry.subject), body: fill(entry.body) };
}

/** One phrase of notify.json, e.g. phrase('de', 'failureReasons', 'amount_mismatch'). */
export function phrase<G extends PhraseGroup>(language: Language, group: G, key: keyof NotifyTexts[G]): string {
  return (textsOf(language)[group] as Record<string, string>)[key as string] ?? String(key);
}

/** The page language the site sends (Accept-Language), or English. */
export function requestLanguage(header: string | undefined): Language {
  const first = (header ?? '')
    .split(',')
    .map((part) => part.trim().slice(0, 2).toLowerCase())
    .find(isLanguage);
  return first ?? defaultLanguage;
}
