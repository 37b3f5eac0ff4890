import { createHash, randomBytes } from 'node:crypto';
import { normalizeAddress, xrpAccountOf } from '../../../../domain/addresses';
import { codeFromBytes, normalizeCode } from '../../../../domain/codes';
import { currencyByCode } from '../../../../domain/currencies';
import { DomainError, secondsToWait, unknownCurrency } from '../../../../domain/errors';
import { CODE_TTL_MINUTES } from '../../../../domain/identity';
import { defaultLanguage, isLanguage, type Language } from '../../../../domain/languages';
import { decimalToMinor, eur } from '../../../../domain/money';
import { ADDRESS_BOOK_MAX_ENTRIES, checkPhrase, maskPhrase, type SecurityEventKind } from '../../../../domain/protection';
import { lockKey } from '../../db/raw';
import { codeRefusal, judgeCode } from '../../one-time-codes';
import { recordAudit } from '../audit/service';
import { antiPhishingPhrase, emailText, phrase as notifyPhrase, fillTemplate, requestLanguage, send as sendMessage, setAntiPhishingPhrase } from '../notify/service';
import { mailTime, sendSecurityEmail } from './mail';
import { protectionRepository, type BookEntry, type ProtectionRow } from './repository';
import type { AuditState } from '../../../../domain/audit';
import type { AddressBookEntry, SecurityOverview, SignInReportResult } from '../../../../domain/contracts/protection';
import type { ErrorCode } from '../../../../domain/errors';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import type { SecurityLinks } from './links';

/**
 * Account protection (issue 19). Invariants:
 * - a send goes out only while the account is not frozen and not in a cool-down, and, in
 *   allow-list mode, only to a live address-book entry whose hold has passed (another Muntly
 *   user's address too); the confirmation checks all of it again under the protection row's
 *   lock, in the transaction that books the money, so a freeze and a confirmation never overlap;
 * - a freeze takes effect at once; an unfreeze takes a login, an emailed code and a cool-down
 *   (the operator may unfreeze at once); a freeze by an operator only an operator lifts; what an
 *   operator does is in the audit trail, in its transaction;
 * - a payout of a frozen account waits for two operators' approval (`accountFrozen`, the payouts'
 *   approval hook);
 * - the anti-phishing phrase is never answered in full once set;
 * - every change is a security event, and the emails about it carry a link that freezes sends.
 */
export type ProtectionSettings = {
  holdMs: number;
  sendCooldownMs: number;
  unfreezeCooldownMs: number;
  maxAuthAgeSeconds: number;
  /** EUR cents; a send worth more needs a second factor in the login. */
  secondFactorAboveEurMinor: bigint;
};

const HOUR_MS = 3_600_000;

export function protectionSettings(config: Config): ProtectionSettings {
  return {
    holdMs: config.ADDRESS_HOLD_HOURS * HOUR_MS,
    sendCooldownMs: config.SEND_COOLDOWN_HOURS * HOUR_MS,
    unfreezeCooldownMs: config.UNFREEZE_COOLDOWN_HOURS * HOUR_MS,
    maxAuthAgeSeconds: config.SEND_MAX_AUTH_AGE_MINUTES * 60,
    secondFactorAboveEurMinor: decimalToMinor(config.SEND_SECOND_FACTOR_ABOVE_EUR, 2)!,
  };
}

/** What moving value out of a wallet needs of account protection: its settings and the maker of the emails' freeze links. */
export type SendProtection = { settings: ProtectionSettings; links: SecurityLinks };

/** What a route hands the service: the settings, the link maker, who acts (the security events' "client") and the page language (the emails'). */
export type ProtectionContext = { settings: ProtectionSettings; links: SecurityLinks; client: string; language: Language };

/** The context of a request of the logged-in user. */
export function protectionContext(app: { protection: { settings: ProtectionSettings; links: SecurityLinks } }, request: { headers: Record<string, string | string[] | undefined> }): ProtectionContext {
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return { ...app.protection, client: clientOf(header('user-agent')), language: requestLanguage(header('accept-language')) };
}

/** Frozen: since frozen_at, until the unfreeze the user confirmed takes effect (or the operator's). */
export const isFrozen = (row: ProtectionRow, now = new Date()): boolean => row.frozenAt !== null && (row.unfreezesAt === null || row.unfreezesAt > now);

const unfreezeCodeHash = (accountId: string, code: string) => createHash('sha256').update(`unfreeze:${accountId}:${code}`).digest('hex');
const later = (a: Date | null, b: Date): Date => (a && a > b ? a : b);

async function recordEvent(db: Db, accountId: string, kind: SecurityEventKind, client: string, detail?: Record<string, string | boolean>): Promise<void> {
  await protectionRepository.insertEvent(db, { accountId, kind, client, detail: detail ?? null });
}

/** The email telling the account what changed ("settings changed"), with its freeze link unless it reports a freeze. */
async function mailChange(
  db: Db,
  ctx: ProtectionContext,
  account: { id: string; email: string | null },
  change: keyof ReturnType<typeof changePhrases>,
  values: { until?: Date; email?: string; detail?: string } = {},
) {
  const language = ctx.language;
  const changeText = fillTemplate(changePhrases(language)[change], { until: values.until ? mailTime(language, values.until) : '', email: values.email ?? '' });
  await sendSecurityEmail(db, ctx.links, {
    accountId: account.id,
    email: account.email,
    language,
    key: 'securityChanged',
    values: { change: changeText, when: mailTime(language, new Date()), detail: values.detail ?? '' },
    freezeLink: change !== 'frozen' && change !== 'frozen_by_operator',
  });
}

function changePhrases(language: Language) {
  const p = (key: Parameters<typeof notifyPhrase<'securityChanges'>>[2]) => notifyPhrase(language, 'securityChanges', key);
  return {
    allow_list_on: p('allow_list_on'),
    allow_list_off: p('allow_list_off'),
    phrase_set: p('phrase_set'),
    phrase_changed: p('phrase_changed'),
    phrase_removed: p('phrase_removed'),
    email_changed: p('email_changed'),
    second_factor_added: p('second_factor_added'),
    second_factor_removed: p('second_factor_removed'),
    frozen: p('frozen'),
    frozen_by_operator: p('frozen_by_operator'),
    unfreeze_confirmed: p('unfreeze_confirmed'),
    unfrozen_by_operator: p('unfrozen_by_operator'),
  };
}

const pausedLine = (language: Language, until: Date) => fillTemplate(notifyPhrase(language, 'security', 'sendsPausedUntil'), { until: mailTime(language, until) });

// ---------------------------------------------------------------------------------------------
// What the outflow gate (modules/gates) asks of protection for every value leaving a wallet.

/**
 * In allow-list mode, the send's address (canonical) must be a live entry of the book whose hold
 * has passed — another Muntly user's address (`internal`) too (issue 34): after a takeover the
 * attacker's own Muntly account is just as much a stranger's wallet as an outside one, and an
 * internal send arrives at once, so it is the faster way to empty an account. `internal` stays in
 * the signature for the entries made before, which may still carry no hold.
 */
export async function bookRefusal(
  db: Db,
  row: ProtectionRow,
  send: { currency: string; address: string; internal: boolean },
  now = new Date(),
): Promise<{ code: ErrorCode; retryAfter?: number } | null> {
  if (!row.allowListOnly) return null;
  const entry = await protectionRepository.liveEntry(db, row.accountId, send.currency, send.address);
  if (!entry) return { code: 'address_not_in_book' };
  if (entry.usableFrom > now) return { code: 'address_on_hold', retryAfter: secondsToWait(entry.usableFrom.getTime() - now.getTime()) };
  return null;
}

export function protectionOf(db: Db, accountId: string, lock?: 'update' | 'share'): Promise<ProtectionRow> {
  return protectionRepository.protectionOf(db, accountId, lock);
}

// ---------------------------------------------------------------------------------------------
// The address book.

function entryView(row: BookEntry, now = new Date()): AddressBookEntry {
  return {
    id: row.id,
    currency: row.currency,
    address: row.address,
    label: row.label,
    ownWallet: row.ownWallet,
    internal: row.internal,
    createdAt: row.createdAt.toISOString(),
    usableFrom: row.usableFrom.toISOString(),
    onHold: row.usableFrom > now,
  };
}

export async function listBook(db: Db, accountId: string): Promise<AddressBookEntry[]> {
  const now = new Date();
  return (await protectionRepository.liveEntries(db, accountId)).map((row) => entryView(row, now));
}

/**
 * Whose Muntly wallet a canonical address is (a reception address), if any: the wallet module's
 * answer, handed in by the composition root (protection does not depend on the wallet, which
 * depends on it).
 */
export type FindReception = (db: Db, currency: string, address: string) => Promise<{ ownerId: string } | undefined>;

export async function addEntry(
  db: Db,
  ctx: ProtectionContext,
  input: {
    account: { id: string; email: string | null };
    houseXrpAddress: string;
    findReception: FindReception;
    currency: string;
    address: string;
    label?: string;
    ownWallet: boolean;
  },
): Promise<AddressBookEntry> {
  const { account } = input;
  const currency = currencyByCode(input.currency.toUpperCase());
  if (!currency) throw unknownCurrency('currency');
  if (currency.support === 'partial') throw new DomainError('currency_partially_supported', 'currency');
  // The one canonical form the sends use: any valid spelling of an address is the same entry.
  const address = normalizeAddress(currency.code, input.address);
  if (!address) throw new DomainError('invalid_address', 'address');
  const recipient = await input.findReception(db, currency.code, address);
  if (recipient?.ownerId === account.id) throw new DomainError('send_to_own_address', 'address');
  if (currency.code === 'XRP' && !recipient && xrpAccountOf(address) === input.houseXrpAddress) throw new DomainError('unknown_destination_tag', 'address');
  const internal = recipient !== undefined;
  const now = new Date();
  const entry = await db.transaction(async (tx) => {
    // One addition per account at a time, so that two at once cannot both find room under the cap.
    await lockKey(tx, `address-book:${account.id}`);
    if ((await protectionRepository.countLiveEntries(tx, account.id)) >= ADDRESS_BOOK_MAX_ENTRIES) throw new DomainError('address_book_full');
    const row = await protectionRepository.insertEntry(tx, {
      accountId: account.id,
      currency: currency.code,
      address,
      label: input.label ?? null,
      // Another Muntly user's wallet is never the user's own (their own addresses are refused above).
      ownWallet: internal ? false : input.ownWallet,
      internal,
      createdAt: now,
      // The same hold whoever the wallet belongs to (bookRefusal says why).
      usableFrom: new Date(now.getTime() + ctx.settings.holdMs),
    });
    if (!row) throw new DomainError('address_already_in_book', 'address');
    await recordEvent(tx, account.id, 'address_added', ctx.client, { currency: row.currency, address: row.address, ...(row.label ? { label: row.label } : {}) });
    await sendSecurityEmail(tx, ctx.links, {
      accountId: account.id,
      email: account.email,
      language: ctx.language,
      key: 'addressAdded',
      cancelEntryId: row.id,
      values: {
        currency: row.currency,
        // No label: the user's own words, but typed by whoever is logged in — after a takeover, a
        // stranger's words under the owner's anti-phishing phrase (issue 34).
        address: row.address,
        holder: notifyPhrase(ctx.language, 'security', row.ownWallet ? 'ownWallet' : 'otherWallet'),
        usableFrom: mailTime(ctx.language, row.usableFrom),
      },
    });
    return row;
  });
  return entryView(entry, now);
}

/** Removes the owner's entry; another user's id is a 404, never a 403. */
export async function removeEntry(db: Db, ctx: Pick<ProtectionContext, 'client'>, input: { accountId: string; id: string }): Promise<AddressBookEntry> {
  if (!/^[0-9a-f-]{36}$/i.test(input.id)) throw new DomainError('not_found');
  return db.transaction(async (tx) => {
    const row = await protectionRepository.cancelEntry(tx, input.accountId, input.id, new Date());
    if (!row) throw new DomainError('not_found');
    await recordEvent(tx, input.accountId, 'address_removed', ctx.client, { currency: row.currency, address: row.address });
    return entryView(row);
  });
}

// ---------------------------------------------------------------------------------------------
// Settings: the allow-list mode and the anti-phishing phrase.

/**
 * Switching the mode on works at once. Switching it off weakens the account, so it waits for the
 * hold since it was switched on (an attacker who just got in cannot undo it), and starts a
 * cool-down on sends.
 */
export async function setAllowList(db: Db, ctx: ProtectionContext, input: { account: { id: string; email: string | null }; on: boolean }): Promise<void> {
  const { account } = input;
  await db.transaction(async (tx) => {
    const row = await protectionOf(tx, account.id, 'update');
    if (row.allowListOnly === input.on) return;
    const now = new Date();
    if (input.on) {
      await protectionRepository.updateProtection(tx, account.id, { allowListOnly: true, allowListSince: now });
      await recordEvent(tx, account.id, 'allow_list_on', ctx.client);
      await mailChange(tx, ctx, account, 'allow_list_on');
      return;
    }
    const offFrom = new Date(row.allowListSince.getTime() + ctx.settings.holdMs);
    if (offFrom > now) throw new DomainError('allow_list_on_hold', 'allowListOnly', undefined, secondsToWait(offFrom.getTime() - now.getTime()));
    const pausedUntil = later(row.sendsPausedUntil, new Date(now.getTime() + ctx.settings.sendCooldownMs));
    await protectionRepository.updateProtection(tx, account.id, { allowListOnly: false, sendsPausedUntil: pausedUntil });
    await recordEvent(tx, account.id, 'allow_list_off', ctx.client);
    await mailChange(tx, ctx, account, 'allow_list_off', { detail: pausedLine(ctx.language, pausedUntil) });
  });
}

/**
 * Sets, changes or removes (null) the phrase. Changing or removing it starts a cool-down on
 * sends (a phisher who got in would change it first); setting the first one does not.
 */
export async function setPhrase(db: Db, ctx: ProtectionContext, input: { account: { id: string; email: string | null }; phrase: string | null }): Promise<void> {
  const { account } = input;
  let phrase: string | null = null;
  if (input.phrase !== null) {
    const checked = checkPhrase(input.phrase);
    if (!checked.ok) throw new DomainError(checked.code, 'phrase');
    phrase = checked.phrase;
  }
  await db.transaction(async (tx) => {
    // Under the protection row's lock: two changes at once are one after the other.
    const row = await protectionOf(tx, account.id, 'update');
    const current = (await antiPhishingPhrase(tx, account.id))?.phrase ?? null;
    if (current === phrase) return;
    const now = new Date();
    const kind: SecurityEventKind = current === null ? 'phrase_set' : phrase === null ? 'phrase_removed' : 'phrase_changed';
    const pausedUntil = kind === 'phrase_set' ? row.sendsPausedUntil : later(row.sendsPausedUntil, new Date(now.getTime() + ctx.settings.sendCooldownMs));
    await setAntiPhishingPhrase(tx, account.id, phrase);
    await protectionRepository.updateProtection(tx, account.id, { sendsPausedUntil: pausedUntil });
    await recordEvent(tx, account.id, kind, ctx.client);
    // Written after the change: the email shows the new phrase at its top (or none).
    await mailChange(tx, ctx, account, kind, { detail: kind === 'phrase_set' ? '' : pausedLine(ctx.language, pausedUntil!) });
  });
}

/**
 * The account's email address changed (the identity provider's token or profile says so): sends
 * pause, and the former address is told, with a freeze link — the new one may be an attacker's.
 */
export async function emailChanged(db: Db, ctx: ProtectionContext, input: { accountId: string; from: string; to: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await protectionOf(tx, input.accountId, 'update');
    const now = new Date();
    const pausedUntil = later(row.sendsPausedUntil, new Date(now.getTime() + ctx.settings.sendCooldownMs));
    await protectionRepository.updateProtection(tx, input.accountId, { sendsPausedUntil: pausedUntil });
    await recordEvent(tx, input.accountId, 'email_changed', ctx.client);
    await mailChange(tx, ctx, { id: input.accountId, email: input.from }, 'email_changed', { email: input.to, detail: pausedLine(ctx.language, pausedUntil) });
  });
}

// ---------------------------------------------------------------------------------------------
// The second factor of the login (two-step login), which the identity provider changes.

/** Who changes their second factor at the identity provider: its subject and email, the client, the page's language. */
export type SecondFactorActor = { issuer: string; subject: string; email: string; client: string; language: Language };

/**
 * The code the identity provider asks for before a second factor is added or removed (issue 34):
 * the password alone must not be enough, or whoever stole it would lock the owner out behind
 * his own authenticator app. Emailed to the account's address; when the account exists, as a
 * security email with the freeze link (its owner learns at once that someone has the password).
 */
export async function mailSecondFactorCode(db: Db, links: SecurityLinks, actor: SecondFactorActor & { code: string; change: 'second_factor_added' | 'second_factor_removed' }): Promise<void> {
  const { language } = actor;
  await db.transaction(async (tx) => {
    const account = await protectionRepository.accountOfSubject(tx, actor.issuer, actor.subject);
    const values = { code: actor.code, change: changePhrases(language)[actor.change] };
    if (account) await sendSecurityEmail(tx, links, { accountId: account.id, email: account.email ?? actor.email, language, key: 'secondFactorCode', values });
    else await sendMessage(tx, { channel: 'email', recipient: actor.email, ...emailText(language, 'secondFactorCode', { ...values, freeze: '' }) });
  });
}

/**
 * A second factor added or removed at the identity provider, in the transaction that changes it:
 * a security event, the security email with the freeze link, and a cool-down on sends — as a new
 * email address does (an attacker who set up his own app could otherwise send at once). A subject
 * without an account yet has no wallet to protect: it is told by email, nothing more.
 */
export async function secondFactorChanged(
  tx: Tx,
  ctx: { links: SecurityLinks; settings: ProtectionSettings },
  actor: SecondFactorActor & { change: 'second_factor_added' | 'second_factor_removed' },
): Promise<void> {
  const account = await protectionRepository.accountOfSubject(tx, actor.issuer, actor.subject);
  const context: ProtectionContext = { ...ctx, client: actor.client, language: actor.language };
  if (!account) {
    const values = { change: changePhrases(actor.language)[actor.change], when: mailTime(actor.language, new Date()), detail: '', freeze: '' };
    await sendMessage(tx, { channel: 'email', recipient: actor.email, ...emailText(actor.language, 'securityChanged', values) });
    return;
  }
  const row = await protectionOf(tx, account.id, 'update');
  const pausedUntil = later(row.sendsPausedUntil, new Date(Date.now() + ctx.settings.sendCooldownMs));
  await protectionRepository.updateProtection(tx, account.id, { sendsPausedUntil: pausedUntil });
  await recordEvent(tx, account.id, actor.change, actor.client);
  await mailChange(tx, context, { id: account.id, email: account.email ?? actor.email }, actor.change, { detail: pausedLine(actor.language, pausedUntil) });
}

// ---------------------------------------------------------------------------------------------
// Freeze and unfreeze.

/** Freezes the account's sends at once (from the site, or by an email's link inside the caller's transaction). */
export async function freeze(db: Db | Tx, ctx: ProtectionContext, input: { account: { id: string; email: string | null }; byLink: boolean }): Promise<void> {
  const { account } = input;
  const run = async (tx: Tx) => {
    const row = await protectionOf(tx, account.id, 'update');
    const now = new Date();
    // Already frozen with no unfreeze under way: nothing changes, nothing to report.
    if (row.frozenAt && row.unfreezesAt === null) return;
    await protectionRepository.updateProtection(tx, account.id, {
      frozenAt: now,
      frozenByOperator: false,
      unfreezesAt: null,
      unfreezeCodeHash: null,
      unfreezeCodeAttempts: 0,
      unfreezeCodeExpiresAt: null,
    });
    await recordEvent(tx, account.id, input.byLink ? 'frozen_by_link' : 'frozen', ctx.client);
    await mailChange(tx, ctx, account, 'frozen', { detail: notifyPhrase(ctx.language, 'security', 'unfreezeHow') });
  };
  if ('rollback' in db) await run(db);
  else await db.transaction(run);
}

/** Step one of an unfreeze (logged in): a code by email. A new code replaces the previous one. */
export async function requestUnfreeze(db: Db, ctx: ProtectionContext, input: { account: { id: string; email: string | null } }): Promise<void> {
  const { account } = input;
  let code: string | null = null;
  while (!code) code = codeFromBytes(randomBytes(32));
  await db.transaction(async (tx) => {
    const row = await protectionOf(tx, account.id, 'update');
    const now = new Date();
    if (!isFrozen(row, now) || row.unfreezesAt) throw new DomainError('not_frozen');
    if (row.frozenByOperator) throw new DomainError('frozen_by_operator');
    // One code a minute at most: each is an email.
    const issuedAt = row.unfreezeCodeExpiresAt ? row.unfreezeCodeExpiresAt.getTime() - CODE_TTL_MINUTES * 60_000 : 0;
    if (now.getTime() - issuedAt < 60_000) throw new DomainError('code_requested_too_soon', undefined, undefined, secondsToWait(issuedAt + 60_000 - now.getTime()));
    await protectionRepository.updateProtection(tx, account.id, {
      unfreezeCodeHash: unfreezeCodeHash(account.id, code),
      unfreezeCodeAttempts: 0,
      unfreezeCodeExpiresAt: new Date(now.getTime() + CODE_TTL_MINUTES * 60_000),
    });
    await recordEvent(tx, account.id, 'unfreeze_requested', ctx.client);
    await sendSecurityEmail(tx, ctx.links, {
      accountId: account.id,
      email: account.email,
      language: ctx.language,
      key: 'unfreezeCode',
      values: { code, resumes: mailTime(ctx.language, new Date(now.getTime() + ctx.settings.unfreezeCooldownMs)) },
      freezeLink: false,
    });
  });
}

/** Step two: the code. Sends resume after the cool-down; a freeze link used meanwhile cancels it. */
export async function confirmUnfreeze(db: Db, ctx: ProtectionContext, input: { account: { id: string; email: string | null }; code: string }): Promise<void> {
  const { account } = input;
  const code = normalizeCode(input.code);
  if (!code) throw new DomainError('invalid_code_format', 'code');
  // A wrong attempt is committed before the answer: the refusal is thrown after the transaction.
  const refusal = await db.transaction(async (tx): Promise<{ code: ErrorCode; message?: string } | null> => {
    const row = await protectionOf(tx, account.id, 'update');
    const now = new Date();
    if (!isFrozen(row, now) || row.unfreezesAt) return { code: 'not_frozen' };
    if (row.frozenByOperator) return { code: 'frozen_by_operator' };
    if (!row.unfreezeCodeHash || !row.unfreezeCodeExpiresAt) return { code: 'no_code_pending' };
    const verdict = judgeCode({ hash: row.unfreezeCodeHash, attempts: row.unfreezeCodeAttempts, expiresAt: row.unfreezeCodeExpiresAt }, unfreezeCodeHash(account.id, code));
    if (verdict.kind === 'wrong') await protectionRepository.updateProtection(tx, account.id, { unfreezeCodeAttempts: verdict.attempts });
    if (verdict.kind !== 'valid') return codeRefusal(verdict);
    const unfreezesAt = new Date(now.getTime() + ctx.settings.unfreezeCooldownMs);
    await protectionRepository.updateProtection(tx, account.id, { unfreezesAt, unfreezeCodeHash: null, unfreezeCodeAttempts: 0, unfreezeCodeExpiresAt: null });
    await recordEvent(tx, account.id, 'unfreeze_confirmed', ctx.client);
    await mailChange(tx, ctx, account, 'unfreeze_confirmed', { until: unfreezesAt });
    return null;
  });
  if (refusal) throw new DomainError(refusal.code, ['not_frozen', 'no_code_pending', 'frozen_by_operator'].includes(refusal.code) ? undefined : 'code', refusal.message);
}

/** What an operator acts on: the account, by its key (the audit trail names it so, never by its email). */
export type OperatedAccount = { id: string; email: string | null; accountKey: string };

/** The freeze as the audit trail keeps it, before and after an operator's action. */
function freezeState(row: ProtectionRow, now = new Date()): AuditState {
  const frozen = isFrozen(row, now);
  return {
    frozen,
    frozenBy: frozen ? (row.frozenByOperator ? 'operator' : 'user') : null,
    frozenAt: frozen ? row.frozenAt!.toISOString() : null,
    unfreezesAt: frozen ? (row.unfreezesAt?.toISOString() ?? null) : null,
  };
}

/** The context of an operator's action: the user's email is written in the language of their latest security email. */
async function operatorContext(db: Db, operator: Omit<ProtectionContext, 'client' | 'language'>, accountId: string): Promise<ProtectionContext> {
  const language = await protectionRepository.lastEmailLanguage(db, accountId);
  return { ...operator, client: 'operator', language: isLanguage(language) ? language : defaultLanguage };
}

/** The freeze as an operator reads it after acting (POST /api/ops/accounts/:accountKey/freeze | unfreeze). */
export type OperatorFreezeView = { frozen: boolean; frozenByOperator: boolean; frozenAt: string | null };
const operatorView = (row: ProtectionRow, now = new Date()): OperatorFreezeView => ({
  frozen: isFrozen(row, now),
  frozenByOperator: isFrozen(row, now) && row.frozenByOperator,
  frozenAt: isFrozen(row, now) ? row.frozenAt!.toISOString() : null,
});

/**
 * An operator freezes the account's sends at once (a suspected takeover, a request of the police).
 * Only an operator lifts it: the user's unfreeze is refused with `frozen_by_operator`. A freeze of
 * the user's own becomes the operator's (an unfreeze under way is cancelled). The user is told,
 * without the reason, which the audit trail keeps with the state before and after.
 */
export async function operatorFreeze(
  db: Db,
  operator: Omit<ProtectionContext, 'client' | 'language'>,
  input: { account: OperatedAccount; actor: string; reason: string },
): Promise<OperatorFreezeView> {
  const { account } = input;
  const ctx = await operatorContext(db, operator, account.id);
  return db.transaction(async (tx) => {
    const row = await protectionOf(tx, account.id, 'update');
    const now = new Date();
    if (isFrozen(row, now) && row.frozenByOperator) throw new DomainError('already_frozen');
    const updated = await protectionRepository.updateProtection(tx, account.id, {
      frozenAt: now,
      frozenByOperator: true,
      unfreezesAt: null,
      unfreezeCodeHash: null,
      unfreezeCodeAttempts: 0,
      unfreezeCodeExpiresAt: null,
    });
    // The reason is for the audit trail, not for the user's list (it may name the operator's checks).
    await recordEvent(tx, account.id, 'frozen_by_operator', ctx.client);
    await mailChange(tx, ctx, account, 'frozen_by_operator', { detail: notifyPhrase(ctx.language, 'security', 'operatorFrozenHow') });
    await recordAudit(tx, { actor: input.actor, action: 'account.freeze', target: account.accountKey, before: freezeState(row, now), after: { ...freezeState(updated, now), reason: input.reason } });
    return operatorView(updated, now);
  });
}

/**
 * The operator unfreezes at once: the user proved who they are to support, or the operator's own
 * freeze ends. Recorded in the audit trail with the reason, in the same transaction.
 */
export async function operatorUnfreeze(
  db: Db,
  operator: Omit<ProtectionContext, 'client' | 'language'>,
  input: { account: OperatedAccount; actor: string; reason: string },
): Promise<OperatorFreezeView> {
  const { account } = input;
  const ctx = await operatorContext(db, operator, account.id);
  return db.transaction(async (tx) => {
    const row = await protectionOf(tx, account.id, 'update');
    const now = new Date();
    if (!isFrozen(row, now)) throw new DomainError('not_frozen');
    const updated = await protectionRepository.updateProtection(tx, account.id, {
      frozenAt: null,
      frozenByOperator: false,
      unfreezesAt: null,
      unfreezeCodeHash: null,
      unfreezeCodeAttempts: 0,
      unfreezeCodeExpiresAt: null,
    });
    await recordEvent(tx, account.id, 'unfrozen_by_operator', ctx.client);
    await mailChange(tx, ctx, account, 'unfrozen_by_operator');
    await recordAudit(tx, { actor: input.actor, action: 'account.unfreeze', target: account.accountKey, before: freezeState(row, now), after: { ...freezeState(updated, now), reason: input.reason } });
    return operatorView(updated, now);
  });
}

/**
 * Whether the account's sends are frozen now: the payouts' approval hook (payouts/approval.ts,
 * wired in app.ts), so that any payout of a frozen account (an order's delivery or refund too)
 * waits for two operators. Read in the payout's own transaction; an account without a protection
 * row was never frozen.
 */
export async function accountFrozen(db: Db, accountId: string): Promise<boolean> {
  const row = await protectionRepository.findProtection(db, accountId);
  return row !== undefined && isFrozen(row);
}

// ---------------------------------------------------------------------------------------------
// Sign-ins reported by the identity provider.

/**
 * A login the identity provider reports (the local provider after the password, and after the
 * one-time password when two-step login is on; in production an Auth0 Action through
 * POST /api/security/sign-ins): whose (the token's subject), from which device (a random key the
 * provider keeps in a long-lived cookie of its own: a new browser is a new device), which client
 * (clientOf the User-Agent), when, and the language of its login page.
 */
export type SignIn = { subject: string; deviceKey: string; client: string; at: Date; language?: Language };
export type SignInOutcome = SignInReportResult['device'];

/** What the devices table keeps of a device key: its SHA-256, never the key. */
export const deviceHash = (deviceKey: string) => createHash('sha256').update(`muntly-sign-in-device:${deviceKey}`).digest('hex');

/**
 * Remembers the device of a login. The subject's first device is recorded silently (an account's
 * first login is no news to anyone, and accounts that existed before devices were kept start
 * here too); a device new to a subject that has others is a security event and an email, with
 * when, from what client and the freeze link; a known device changes nothing the user sees.
 * One login at a time per subject (a lock): two logins at once from one new device send one email.
 * A subject without an account yet (the account is made by its first request) has nothing to
 * protect: its devices are kept, nobody is told.
 */
export async function recordSignIn(db: Db, ctx: { links: SecurityLinks; issuer: string }, signIn: SignIn): Promise<SignInOutcome> {
  const { issuer } = ctx;
  const { subject, client, at } = signIn;
  const hash = deviceHash(signIn.deviceKey);
  return db.transaction(async (tx) => {
    await lockKey(tx, `sign-in:${issuer}:${subject}`);
    if (await protectionRepository.touchDevice(tx, issuer, subject, hash, at)) return 'known_device';
    const first = (await protectionRepository.countDevices(tx, issuer, subject)) === 0;
    await protectionRepository.insertDevice(tx, { issuer, subject, deviceHash: hash, client, firstSeenAt: at, lastSeenAt: at });
    if (first) return 'first_device';
    const account = await protectionRepository.accountOfSubject(tx, issuer, subject);
    if (!account) return 'new_device';
    await protectionRepository.insertEvent(tx, { accountId: account.id, kind: 'signed_in_new_device', client, detail: null, createdAt: at });
    // The user's language: that of their latest security email; else the login page's (which
    // whoever logs in chooses, so only when there is nothing better).
    const last = await protectionRepository.lastEmailLanguage(tx, account.id);
    const language = isLanguage(last) ? last : (signIn.language ?? defaultLanguage);
    await sendSecurityEmail(tx, ctx.links, {
      accountId: account.id,
      email: account.email,
      language,
      key: 'newSignIn',
      values: { when: mailTime(language, at), client: clientPhrase(language, client) },
    });
    return 'new_device';
  });
}

/**
 * A client as an email names it, in its language ("Firefox unter Linux"). Anything but a known
 * browser is named by a fixed phrase, never by its User-Agent's first word: whoever logs in
 * chooses that, and the email carries the owner's anti-phishing phrase (issue 34).
 */
function clientPhrase(language: Language, client: string): string {
  const browserOn = /^(\S+) on (\S+)$/.exec(client);
  if (browserOn) return fillTemplate(notifyPhrase(language, 'security', 'browserOn'), { browser: browserOn[1]!, system: browserOn[2]! });
  return client === 'API' ? client : notifyPhrase(language, 'security', 'otherClient');
}

// ---------------------------------------------------------------------------------------------
// Links from emails, used without a login.

/** The freeze link: freezes the link's account and marks the link used, in one transaction. */
export async function freezeByLink(db: Db, ctx: Omit<ProtectionContext, 'language'>, token: string) {
  return db.transaction(async (tx) => {
    const opened = await ctx.links.open(tx, token, 'freeze');
    if (!opened.ok) return opened;
    if (!(await protectionRepository.useLink(tx, opened.link.id, new Date()))) return { ok: false as const, code: 'link_used' as const, language: opened.link.language as Language };
    const email = await protectionRepository.emailOf(tx, opened.link.accountId);
    await freeze(tx, { ...ctx, language: opened.link.language as Language }, { account: { id: opened.link.accountId, email }, byLink: true });
    return { ok: true as const, language: opened.link.language as Language };
  });
}

/** The cancel link of a new entry: cancels it (if still live) and marks the link used. */
export async function cancelByLink(db: Db, ctx: Omit<ProtectionContext, 'language'>, token: string) {
  return db.transaction(async (tx) => {
    const opened = await ctx.links.open(tx, token, 'cancel_address');
    if (!opened.ok) return opened;
    if (!(await protectionRepository.useLink(tx, opened.link.id, new Date()))) return { ok: false as const, code: 'link_used' as const, language: opened.link.language as Language };
    const entry = await protectionRepository.cancelEntry(tx, opened.link.accountId, opened.link.entryId!, new Date());
    if (entry) await recordEvent(tx, opened.link.accountId, 'address_cancelled_by_link', ctx.client, { currency: entry.currency, address: entry.address });
    // The page offers to freeze the sends too: the cancel link proved the mailbox as a freeze link would.
    const language = opened.link.language as Language;
    const freezeUrl = await ctx.links.create(tx, { accountId: opened.link.accountId, purpose: 'freeze', language });
    return { ok: true as const, language, freezeToken: new URL(freezeUrl).searchParams.get('t')! };
  });
}

/** What a link's confirmation page shows before anything is done (GET never changes anything). */
export async function previewLink(db: Db, links: SecurityLinks, token: string, purpose: 'freeze' | 'cancel_address') {
  const opened = await links.open(db, token, purpose);
  if (!opened.ok) return opened;
  const entry = opened.link.entryId ? await protectionRepository.entryById(db, opened.link.entryId) : undefined;
  return { ok: true as const, language: opened.link.language as Language, entry: entry && !entry.cancelledAt ? entry : undefined };
}

// ---------------------------------------------------------------------------------------------
// The overview of GET /api/wallet/security.

const EVENTS_SHOWN = 50;

export async function securityOverview(db: Db, settings: ProtectionSettings, accountId: string): Promise<SecurityOverview> {
  const row = await protectionOf(db, accountId);
  const now = new Date();
  const [book, events, phrase] = await Promise.all([listBook(db, accountId), protectionRepository.recentEvents(db, accountId, EVENTS_SHOWN), antiPhishingPhrase(db, accountId)]);
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    allowListOnly: row.allowListOnly,
    allowListOffFrom: row.allowListOnly ? new Date(row.allowListSince.getTime() + settings.holdMs).toISOString() : null,
    phrase: phrase ? { masked: maskPhrase(phrase.phrase), setAt: phrase.setAt.toISOString() } : null,
    frozen: isFrozen(row, now),
    frozenAt: isFrozen(row, now) ? iso(row.frozenAt) : null,
    frozenByOperator: isFrozen(row, now) && row.frozenByOperator,
    unfreezesAt: isFrozen(row, now) ? iso(row.unfreezesAt) : null,
    unfreezeCodeSent: isFrozen(row, now) && row.unfreezeCodeExpiresAt !== null && row.unfreezeCodeExpiresAt > now,
    sendsPausedUntil: row.sendsPausedUntil && row.sendsPausedUntil > now ? row.sendsPausedUntil.toISOString() : null,
    holdHours: settings.holdMs / HOUR_MS,
    secondFactorAboveEur: eur(settings.secondFactorAboveEurMinor),
    addressBook: book,
    events: events.map((event) => ({ kind: event.kind, at: event.createdAt.toISOString(), client: event.client, detail: (event.detail as Record<string, string> | null) ?? null })),
  };
}

/**
 * Who acted, as the security events show it: the browser and system the site was used from
 * ("Firefox on Linux"), never an IP address. From the User-Agent, which a client may fake: it
 * describes, it proves nothing.
 */
export function clientOf(userAgent: string | undefined): string {
  if (!userAgent) return 'API';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : null;
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad|iPod/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux|X11/.test(userAgent)
            ? 'Linux'
            : null;
  if (browser && system) return `${browser} on ${system}`;
  // Something else (a script, a command line): its first word, short and free of anything odd.
  return (userAgent.split(/[\s/]/)[0] ?? 'API').replace(/[^\w.-]/g, '').slice(0, 40) || 'API';
}

export { maskPhrase };
