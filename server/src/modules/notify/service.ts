import fs from 'node:fs';
import path from 'node:path';
import { desc, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';
import { defaultLanguage, isLanguage, type Language } from '../../../../src/i18n/languages';

/**
 * Messages to users: email, SMS, a letter by post, the reason of a small bank transfer. Locally
 * every channel is simulated by the outbox table (shown on the dev mailbox page and by
 * `npm run ops -- outbox`); a production deployment adds its SMTP/SMS/post/bank adapters behind
 * `send`. Messages are written in the same transaction as the change that causes them, so a
 * failure loses neither.
 */
export type Channel = 'email' | 'sms' | 'post' | 'bank';
export type Message = {
  channel: Channel;
  recipient: string;
  subject: string;
  body: string;
  accountId?: string;
  /** Deleted by the retention job after this date; without it the message is kept with the records. */
  retainUntil?: Date;
};

export async function send(db: Db, message: Message): Promise<void> {
  await db.insert(outbox).values({ ...message, accountId: message.accountId ?? null, retainUntil: message.retainUntil ?? null });
}

/** Retention: deletes the messages whose retention date has passed; returns how many. */
export async function deleteExpiredMessages(db: Db, now = new Date()): Promise<number> {
  const deleted = await db.delete(outbox).where(lt(outbox.retainUntil, now)).returning({ id: outbox.id });
  return deleted.length;
}

export async function listOutbox(db: Db, recipient?: string) {
  const query = db
    .select({ channel: outbox.channel, to: outbox.recipient, subject: outbox.subject, body: outbox.body, createdAt: outbox.createdAt })
    .from(outbox)
    .orderBy(desc(outbox.createdAt))
    .limit(500);
  const rows = recipient ? await query.where(sql`lower(${outbox.recipient}) = lower(${recipient.trim()})`) : await query;
  return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
}

/** Message texts from locales/<language>/notify.json, with {{placeholders}} filled in. */
const localesDir = path.resolve(__dirname, '../../../../locales');
const cache = new Map<Language, Record<string, Record<string, string>>>();

function textsOf(language: Language): Record<string, Record<string, string>> {
  let texts = cache.get(language);
  if (!texts) {
    texts = JSON.parse(fs.readFileSync(path.join(localesDir, language, 'notify.json'), 'utf8')) as Record<string, Record<string, string>>;
    cache.set(language, texts);
  }
  return texts;
}

export function messageText(language: Language, key: string, values: Record<string, string>): { subject: string; body: string } {
  const texts = textsOf(language);
  const fill = (template: string) => template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
  const entry = texts[key]!;
  return { subject: fill(entry.subject ?? ''), body: fill(entry.body ?? '') };
}

/** One phrase of notify.json, e.g. phrase('de', 'failureReasons', 'amount_mismatch'). */
export function phrase(language: Language, group: string, key: string): string {
  return textsOf(language)[group]?.[key] ?? key;
}

/** The page language the site sends (Accept-Language), or English. */
export function requestLanguage(header: string | undefined): Language {
  const first = (header ?? '').split(',').map((part) => part.trim().slice(0, 2).toLowerCase()).find(isLanguage);
  return first ?? defaultLanguage;
}
