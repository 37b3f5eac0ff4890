import fs from 'node:fs';
import path from 'node:path';
import { emailKey } from '#domain/email';
import { formatDate as dateText, formatDateTime as dateTimeText, formatMoney as moneyText } from '#domain/format';
import { defaultLanguage, isLanguage, type Language } from '#domain/languages';
import { SAMPLE_OPERATOR_CONTACT, type Operator, type OperatorIdentity } from '#domain/operator';
import { soleAccountsOfEmails } from '../accounts/service';
import { emailHtml, type EmailFooter } from './email-html';
import { withPhraseBanner } from './phrase-banner';
import { notifyRepository } from './repository';
import type { MessageChannel } from '#domain/messages';
import type englishTexts from '../../../../locales/en/notify.json';
import type { Db, Tx } from '../../db/client';
import type { AnyColumn, SQL } from 'drizzle-orm';

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
  /**
   * Emails: the HTML part beside the text, both with the operator at their foot (emailParts).
   * An email without it is made into one here, in English; other channels have none.
   */
  html?: string;
  accountId?: string;
  /** Deleted by the retention job after this date; without it the message is kept with the records. */
  retainUntil?: Date;
  /** The language it is written in (messageText gives it): the anti-phishing phrase's line is written in it too. */
  language?: Language;
  /**
   * The message carries words someone other than Muntly chose (a support request as its sender
   * wrote it, for the support mailbox): it never shows an anti-phishing phrase, whoever receives
   * it. The phrase vouches for Muntly's own words only (issue 34): a stranger who may put text
   * under it can make a phishing email look genuine.
   */
  thirdPartyText?: boolean;
};

/**
 * Writes the message to the outbox. An email to the address of an account that set an
 * anti-phishing phrase shows it at the top, in its text and its HTML part: every email to that
 * address, whatever it is about (an order placed without logging in too) — so no email to a user
 * may carry text a stranger wrote (no name or message typed into a form: issue 34); a message
 * that must (`thirdPartyText`) never shows the phrase.
 */
export async function send(db: Db, message: Message): Promise<void> {
  const { language = defaultLanguage, thirdPartyText = false, ...rest } = message;
  const row = { ...rest, accountId: rest.accountId ?? null, retainUntil: rest.retainUntil ?? null };
  if (rest.channel !== 'email') return notifyRepository.insert(db, { ...row, html: null });
  const parts = rest.html ? { body: rest.body, html: rest.html } : emailParts(language, rest.subject, rest.body);
  const { body, html } = thirdPartyText ? parts : await withAccountPhrase(db, language, rest.recipient, parts);
  await notifyRepository.insert(db, { ...row, body, html });
}

/**
 * An email's text and HTML with the anti-phishing phrase atop both, when its address belongs to
 * an account that set one: every email Muntly writes passes here, now (`send`) or when an email
 * kept as a template is written (outbox-writer.ts).
 */
export async function withAccountPhrase(
  db: Db,
  language: Language,
  recipient: string,
  parts: { body: string; html: string },
): Promise<{ body: string; html: string }> {
  const key = emailKey(recipient);
  return withPhrase(language, (await phrasesOfRecipients(db, [recipient])).get(key), parts);
}

/**
 * The phrases of the accounts these addresses belong to (emailKey → phrase), for withPhrase: two
 * queries for many emails. An address two accounts share gets none (soleAccountsOfEmails).
 */
export async function phrasesOfRecipients(db: Db, recipients: string[]): Promise<Map<string, string>> {
  const accountOf = await soleAccountsOfEmails(db, recipients.map(emailKey));
  const phraseOf = await notifyRepository.phrasesOfAccounts(db, [...accountOf.values()]);
  return new Map(
    [...accountOf].flatMap(([email, id]) => {
      const phrase = phraseOf.get(id);
      return phrase ? [[email, phrase] as const] : [];
    }),
  );
}

/** The phrase, when there is one, atop an email's text and HTML, in its language. */
export function withPhrase(
  language: Language,
  phrase: string | null | undefined,
  parts: { body: string; html: string },
): { body: string; html: string } {
  if (!phrase) return parts;
  const [line = '', note = ''] = textsOf(language).security.phraseBanner.split('\n');
  return {
    body: `${fillTemplate(line, { phrase })}\n${note}\n\n${parts.body}`,
    html: withPhraseBanner(parts.html, fillTemplate(line, { phrase }), phrase, note),
  };
}

/**
 * The account's anti-phishing phrase (issue 19), which `send` puts atop every email to its
 * address. Set by account protection (modules/protection), which decides when it may change.
 */
export function antiPhishingPhrase(db: Db, accountId: string): Promise<{ phrase: string; setAt: Date } | undefined> {
  return notifyRepository.phraseOf(db, accountId);
}

/** Sets the phrase (already checked: domain/protection.ts checkPhrase), or removes it (null). */
export function setAntiPhishingPhrase(db: Db, accountId: string, phrase: string | null): Promise<void> {
  return notifyRepository.setPhrase(db, accountId, phrase);
}

/**
 * When messages went to a recipient on a channel since then, under a lock on that recipient held
 * until the caller's transaction ends (a limit per recipient counts, then sends, one at a time).
 */
export function lockAndListSentTo(
  tx: Tx,
  channel: Message['channel'],
  recipient: string,
  since: Date,
): Promise<Date[]> {
  return notifyRepository.lockAndListSentTo(tx, channel, recipient, since);
}

/**
 * The sign-up form's email (issue 34): a welcome to a new account, or — the address has an
 * account already — that someone tried to sign up with it. Muntly's words only: nothing typed
 * into the form, which anyone may fill in with anyone's address.
 */
export async function mailSignUp(
  db: Db,
  input: { email: string; language: Language; existing: boolean; loginUrl: string },
): Promise<void> {
  await send(db, {
    channel: 'email',
    recipient: input.email,
    ...emailText(input.language, input.existing ? 'signUpExisting' : 'signUpWelcome', { loginUrl: input.loginUrl }),
  });
}

/**
 * Retention: deletes the messages whose retention date has passed; returns how many. A message
 * of an account (a verification code, carrying the number, address or IBAN it was sent to) also
 * waits for `relationshipEnded`, as the identity data it carries does.
 */
export async function deleteExpiredMessages(
  db: Db,
  now = new Date(),
  relationshipEnded?: (accountId: AnyColumn) => SQL,
): Promise<number> {
  return notifyRepository.deleteExpired(db, now, relationshipEnded);
}

/**
 * Message texts from locales/<language>/notify.json, with {{placeholders}} filled in. Keys are
 * typed from the English file (every language has the same keys: __tests__/locales.test.ts), so
 * a misspelt message or phrase does not compile.
 */
type NotifyTexts = typeof englishTexts;
/** The messages: each has a subject and a body. */
export type MessageKey = {
  [K in keyof NotifyTexts]: NotifyTexts[K] extends { subject: string; body: string } ? K : never;
}[keyof NotifyTexts];
/** The groups of phrases put into messages (failure reasons, refunds). */
export type PhraseGroup = Exclude<keyof NotifyTexts, MessageKey>;

const localesDir = path.resolve(__dirname, '../../../../locales');
const localeFiles = new Map<string, unknown>();

/** A namespace of locales/<language>/, read once per process (notify's texts, the currencies', the sample operator's). */
function localeFile<T>(language: Language, namespace: 'notify' | 'currencies' | 'common'): T {
  const key = `${language}/${namespace}`;
  if (!localeFiles.has(key)) {
    localeFiles.set(key, JSON.parse(fs.readFileSync(path.join(localesDir, language, `${namespace}.json`), 'utf8')));
  }
  return localeFiles.get(key) as T;
}

const textsOf = (language: Language) => localeFile<NotifyTexts>(language, 'notify');

/**
 * What to send to pay a sell or swap in this currency, and what is lost otherwise (network,
 * tokens, XRP's tag): the same sentence the site shows, from locales/<language>/currencies.json.
 */
export function sendOnlyText(language: Language, currency: string): string | undefined {
  return localeFile<{ sendOnly: Record<string, string> }>(language, 'currencies').sendOnly[currency];
}

/** A date in the language's long form ("5 December 2026"), as every page and email writes it. */
export function formatDate(language: Language, date: Date): string {
  return dateText(date, language, { utc: true });
}

/**
 * A moment in the language's long form with its time, in UTC and saying so ("5 December 2026 at
 * 19:07 UTC"): a deadline to the minute, where the reader's time zone is not known.
 */
export function formatMoment(language: Language, date: Date): string {
  return dateTimeText(date, language, { utc: true });
}

/** Fills the {{placeholders}} of a template; a missing value leaves nothing. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}

/** A message in a language, for any channel (an SMS, a letter, a transfer's reason): its subject and text. */
export function messageText(
  language: Language,
  key: MessageKey,
  values: Record<string, string>,
): { subject: string; body: string } {
  const entry = textsOf(language)[key];
  // A placeholder left empty (an optional paragraph) leaves no run of empty lines behind.
  return {
    subject: fillTemplate(entry.subject, values),
    body: fillTemplate(entry.body, values).replace(/\n{3,}/g, '\n\n'),
  };
}

/** A message as an email: its text and HTML parts, the operator named at the foot of both (emailParts). */
export function emailText(language: Language, key: MessageKey, values: Record<string, string>): EmailParts {
  const { subject, body } = messageText(language, key, values);
  return emailParts(language, subject, body);
}

/**
 * Who operates Muntly, named at the foot of every email: the server's configuration (OPERATOR_*),
 * given once when the app is built, as GET /api/operator serves it; the marked sample until then.
 */
let operator: Operator = { sample: true };
export function setEmailOperator(configured: Operator): void {
  operator = configured;
}

/** The operator's details in a language: the configured ones, or the sample's (locales/<lng>/common.json, as the site shows them). */
function operatorDetails(language: Language): OperatorIdentity {
  if (!operator.sample) return operator;
  const common = localeFile<{ operator: { sample: Omit<OperatorIdentity, keyof typeof SAMPLE_OPERATOR_CONTACT> } }>(
    language,
    'common',
  );
  return { ...common.operator.sample, ...SAMPLE_OPERATOR_CONTACT };
}

/** The foot of an email in a language: the operator's name and address, who represents it, its register entry and how to reach it. */
export function emailFooter(language: Language): EmailFooter {
  const details = operatorDetails(language);
  const texts = textsOf(language).operatorFooter;
  const line = (template: string, value: string | undefined) => (value ? [fillTemplate(template, { value })] : []);
  return {
    ...(operator.sample ? { sampleNotice: texts.sample } : {}),
    lines: [
      fillTemplate(texts.operatedBy, { name: details.name, address: details.address }),
      ...line(texts.representatives, details.representatives),
      ...line(texts.registration, details.registration),
      ...line(texts.contact, [details.email, details.phone].filter(Boolean).join(', ')),
    ],
  };
}

/** An email's parts, and the language they are written in (the anti-phishing phrase's line is written in it too). */
export type EmailParts = { subject: string; body: string; html: string; language: Language };

/**
 * An email in a language: the text part (the text, then after the signature separator "-- " the
 * operator's footer) and the HTML part made from the same text and footer (email-html.ts).
 */
export function emailParts(language: Language, subject: string, text: string): EmailParts {
  const footer = emailFooter(language);
  const signature = [...(footer.sampleNotice ? [footer.sampleNotice] : []), ...footer.lines].join('\n');
  return { subject, body: `${text}\n\n-- \n${signature}`, html: emailHtml(language, subject, text, footer), language };
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

/**
 * An amount (a decimal string, formatted exactly, never through a float) for a message in this
 * language, by the very function the site uses (domain/format.ts), so an email and the page
 * write it alike.
 */
export const formatMoney = (language: Language, amount: string, currency: string): string =>
  moneyText(amount, currency, language);
