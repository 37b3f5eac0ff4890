import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { codeFromBytes } from '#domain/codes';
import { RETENTION_YEARS, yearsAfter } from '#domain/identity';
import { SUPPORT_MAILBOX, SUPPORT_RETENTION_YEARS, type SupportRequest } from '#domain/support';
import { emailParts, send } from '../notify/service';
import { orderBacklog, orderExists } from '../orders/service';
import { payoutsWaiting } from '../payouts/service';
import type { ServiceStatus, SupportReceipt, WorkerStatus } from '#domain/contracts/support';
import type { Language } from '#domain/languages';
import type { Db } from '../../db/client';

/**
 * Support requests and the service status.
 *
 * Invariants: a support request becomes two outbox messages written in one transaction — the
 * request itself to the support mailbox (reply-to: the sender) and a confirmation to the sender
 * in the page language — so neither is lost without the other. The confirmation repeats nothing
 * the sender typed: whoever fills in the form chooses the address it goes to. The status reads only what every
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

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');

/** A short number the sender and support both quote, e.g. "KQWM-TZRA". */
function ticketNumber(): string {
  let code: string | null = null;
  while (!code) code = codeFromBytes(randomBytes(32));
  return code.slice(0, 9);
}

/**
 * When the request and its confirmation are deleted: two years on, or with the records of the
 * order it names when that order exists (AML, five years).
 */
async function retainUntil(db: Db, request: SupportRequest, now: Date): Promise<Date> {
  const namesAnOrder = request.orderReference ? await orderExists(db, request.orderReference) : false;
  return yearsAfter(now, namesAnOrder ? RETENTION_YEARS : SUPPORT_RETENTION_YEARS);
}

export async function submitSupportRequest(
  db: Db,
  request: SupportRequest,
  language: Language,
): Promise<SupportReceipt> {
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
    const keepUntil = await retainUntil(tx, request, new Date());
    await send(tx, {
      channel: 'email',
      recipient: SUPPORT_MAILBOX,
      retainUntil: keepUntil,
      subject: `[${ticket}] ${english.topics[request.topic] ?? request.topic}: ${request.name}`.slice(0, 200),
      body: lines.join('\n'),
      thirdPartyText: true,
    });
    // Anyone may type any address into the form, and the confirmation carries the anti-phishing
    // phrase of the account that address belongs to: it says only what Muntly says (the ticket
    // and the topic, from our own list), never the sender's name or message.
    const values = { ticket, topic: local.topics[request.topic] ?? request.topic };
    await send(tx, {
      channel: 'email',
      recipient: request.email,
      retainUntil: keepUntil,
      ...emailParts(language, fill(local.confirmation.subject, values), fill(local.confirmation.body, values)),
    });
  });
  return { ticket };
}

/** Work waiting longer than this for its worker means the worker is behind or down. */
export const WORKER_DELAY_LIMIT_MS = 5 * 60_000;

/** GET /api/status's answer (domain/contracts/support.ts). */
export type { ServiceStatus, WorkerStatus };

const UNKNOWN: WorkerStatus = { status: 'unknown', waiting: 0, delayed: 0 };

/** Paid orders the worker still has to convert, and those waiting since before the cutoff. */
async function backlog(db: Db, cutoff: Date): Promise<WorkerStatus> {
  const { waiting, delayed } = await orderBacklog(db, cutoff);
  return { status: delayed > 0 ? 'delayed' : 'ok', waiting, delayed };
}

async function payoutBacklog(db: Db, cutoff: Date): Promise<WorkerStatus> {
  const { waiting, delayed } = await payoutsWaiting(db, cutoff);
  return { status: delayed > 0 ? 'delayed' : 'ok', waiting, delayed };
}

export async function serviceStatus(db: Db, ready: () => Promise<boolean>, now = new Date()): Promise<ServiceStatus> {
  const checkedAt = now.toISOString();
  const down: ServiceStatus = {
    api: 'ok',
    database: 'down',
    workers: { orders: UNKNOWN, payouts: UNKNOWN },
    checkedAt,
  };
  if (!(await ready().catch(() => false))) return down;
  try {
    const cutoff = new Date(now.getTime() - WORKER_DELAY_LIMIT_MS);
    return {
      api: 'ok',
      database: 'ok',
      workers: {
        orders: await backlog(db, cutoff),
        payouts: await payoutBacklog(db, cutoff),
      },
      checkedAt,
    };
  } catch {
    return down;
  }
}
