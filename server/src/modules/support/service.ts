import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { and, count, eq, lt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { walletSends } from '../../db/schema';
import { send } from '../notify/service';
import { codeFromBytes } from '../../../../domain/codes';
import { SUPPORT_MAILBOX, type SupportRequest } from '../../../../domain/support';
import type { Language } from '../../../../src/i18n/languages';

/**
 * Support requests and the service status.
 *
 * Invariants: a support request becomes two outbox messages written in one transaction — the
 * request itself to the support mailbox (reply-to: the sender) and a confirmation to the sender
 * in the page language — so neither is lost without the other. The status reads only what every
 * replica shares (the database), never one process's memory.
 */
const localesDir = path.resolve(__dirname, '../../../../locales');
type MailTexts = { confirmation: { subject: string; body: string }; topics: Record<string, string> };
const texts = new Map<Language, MailTexts>();

function mailTexts(language: Language): MailTexts {
  let entry = texts.get(language);
  if (!entry) {
    const support = JSON.parse(fs.readFileSync(path.join(localesDir, language, 'support.json'), 'utf8')) as {
      mail: MailTexts['confirmation'];
      form: { topics: Record<string, string> };
    };
    entry = { confirmation: support.mail, topics: support.form.topics };
    texts.set(language, entry);
  }
  return entry;
}

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');

/** A short number the sender and support both quote, e.g. "KQWM-TZRA". */
function ticketNumber(): string {
  let code: string | null = null;
  while (!code) code = codeFromBytes(randomBytes(32));
  return code.slice(0, 9);
}

export async function submitSupportRequest(db: Db, request: SupportRequest, language: Language): Promise<{ ticket: string }> {
  const ticket = ticketNumber();
  const english = mailTexts('en');
  const local = mailTexts(language);
  const lines = [
    `Ticket: ${ticket}`,
    `From: ${request.name} <${request.email}>`,
    `Topic: ${english.topics[request.topic] ?? request.topic}`,
    `Order reference: ${request.orderReference ?? '-'}`,
    `Language: ${language}`,
    '',
    request.message,
  ];
  await db.transaction(async (tx) => {
    await send(tx, {
      channel: 'email',
      recipient: SUPPORT_MAILBOX,
      subject: `[${ticket}] ${english.topics[request.topic] ?? request.topic}: ${request.name}`.slice(0, 200),
      body: lines.join('\n'),
    });
    const values = { name: request.name, ticket, topic: local.topics[request.topic] ?? request.topic, message: request.message };
    await send(tx, {
      channel: 'email',
      recipient: request.email,
      subject: fill(local.confirmation.subject, values),
      body: fill(local.confirmation.body, values),
    });
  });
  return { ticket };
}

/** A send waiting longer than this for the payout worker means the worker is behind or down. */
export const PAYOUT_DELAY_LIMIT_MS = 5 * 60_000;

export type ServiceStatus = {
  api: 'ok';
  database: 'ok' | 'down';
  workers: { payouts: { status: 'ok' | 'delayed' | 'unknown'; waiting: number; delayed: number } };
  checkedAt: string;
};

export async function serviceStatus(db: Db, ready: () => Promise<boolean>, now = new Date()): Promise<ServiceStatus> {
  const checkedAt = now.toISOString();
  const databaseUp = await ready().catch(() => false);
  if (!databaseUp) return { api: 'ok', database: 'down', workers: { payouts: { status: 'unknown', waiting: 0, delayed: 0 } }, checkedAt };
  try {
    const cutoff = new Date(now.getTime() - PAYOUT_DELAY_LIMIT_MS);
    const [waiting] = await db.select({ n: count() }).from(walletSends).where(eq(walletSends.status, 'processing'));
    const [late] = await db
      .select({ n: count() })
      .from(walletSends)
      .where(and(eq(walletSends.status, 'processing'), lt(walletSends.confirmedAt, cutoff)));
    const delayed = Number(late?.n ?? 0);
    return {
      api: 'ok',
      database: 'ok',
      workers: { payouts: { status: delayed > 0 ? 'delayed' : 'ok', waiting: Number(waiting?.n ?? 0), delayed } },
      checkedAt,
    };
  } catch {
    return { api: 'ok', database: 'down', workers: { payouts: { status: 'unknown', waiting: 0, delayed: 0 } }, checkedAt };
  }
}
