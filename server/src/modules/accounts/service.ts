import { randomBytes } from 'node:crypto';
import { emailKey } from '#domain/email';
import { DEFAULT_DEPOSIT_LIMIT_EUR_MINOR } from '#domain/limits';
import { eur } from '#domain/money';
import { accountKeyFromBytes, depositReference } from '#domain/references';
import { VERIFICATION_KINDS, type VerificationKind, type VerificationPhase } from '#domain/verification';
import { accountsRepository, type AccountRow } from './repository';
import type { Me } from '#domain/contracts/accounts';
import type { Db } from '../../db/client';
import type { Auth } from '../../plugins/auth';
import type { FastifyRequest } from 'fastify';

/**
 * Accounts are created on a user's first authenticated request. Invariants: one account per
 * (issuer, subject), even when first requests race (the unique index decides); account keys
 * are unique (a collision just draws another key).
 */
function newAccountKey(): string {
  for (;;) {
    const key = accountKeyFromBytes(randomBytes(16));
    if (key) return key;
  }
}

export type { AccountRow };

export type Profile = { email?: string; name?: string };

/** The account of an email address (stored and compared as emailKey gives it). */
export async function findAccountByEmail(db: Db, email: string): Promise<AccountRow | undefined> {
  const [account] = await accountsRepository.findByEmail(db, emailKey(email));
  return account;
}

/**
 * The account of each of these addresses (emailKey → account id), left out where two accounts
 * share an address (two issuers): whose would it be? Notify names an email's phrase by it.
 */
export async function soleAccountsOfEmails(db: Db, emails: string[]): Promise<Map<string, string>> {
  if (emails.length === 0) return new Map();
  const rows = await accountsRepository.soleIdsOfEmails(db, [...new Set(emails)]);
  return new Map(rows.flatMap(({ email, id }) => (email ? [[email, id] as const] : [])));
}

/** The account of a login (issuer and subject), if it has one: an operator may be a customer too. */
export function findAccountBySubject(db: Db, issuer: string, subject: string): Promise<AccountRow | undefined> {
  return accountsRepository.findBySubject(db, issuer, subject);
}

export function findAccountById(db: Db, id: string): Promise<AccountRow | undefined> {
  return accountsRepository.findById(db, id);
}

/** The account key of each of these accounts, by id (the audit trail names accounts by key). */
export async function accountKeysOf(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  return new Map((await accountsRepository.keysOf(db, ids)).map((row) => [row.id, row.accountKey]));
}

/** The key and email address of each of these accounts, by id (operators' lists name the customer). */
export async function accountContactsOf(
  db: Db,
  ids: string[],
): Promise<Map<string, { accountKey: string; email: string | null }>> {
  if (ids.length === 0) return new Map();
  const rows = await accountsRepository.keysOf(db, ids);
  return new Map(rows.map((row) => [row.id, { accountKey: row.accountKey, email: row.email }]));
}

/** The account of an account key (the key a deposit's payment reason names). */
export function findAccountByKey(db: Db, accountKey: string): Promise<AccountRow | undefined> {
  return accountsRepository.findByKey(db, accountKey);
}

/** Operators: the account whose key is `q`, and those whose email contains it, newest first. */
export function searchAccounts(db: Db, q: string, limit: number): Promise<AccountRow[]> {
  return accountsRepository.search(db, q.trim(), limit);
}

/** Every account, oldest first (the operator's list). */
export function listAccounts(db: Db): Promise<AccountRow[]> {
  return accountsRepository.list(db);
}

/**
 * What happens when the provider says an account's email address changed (a request of the user):
 * account protection makes it a security event (the composition root wires it, app.ts).
 */
export type EmailChangeHook = (db: Db, change: { accountId: string; from: string; to: string }) => Promise<void>;
/** The hook for one request's user (its browser, its language: the security event's and the email's). */
export type EmailChangeHookOf = (request: FastifyRequest) => EmailChangeHook;

/** The caller's account, created on first use; `onEmailChange` hears of a changed email address. */
export async function ensureAccount(
  db: Db,
  auth: Auth,
  profile: Profile = {},
  onEmailChange?: EmailChangeHook,
): Promise<AccountRow> {
  const given = profile.email ?? auth.email;
  const email = given ? emailKey(given) : undefined;
  const name = profile.name ?? auth.name;
  for (let attempt = 0; attempt < 5; attempt++) {
    const existing = await accountsRepository.findBySubject(db, auth.issuer, auth.subject);
    if (existing) {
      if ((email && email !== existing.email) || (name && name !== existing.displayName)) {
        await accountsRepository.updateProfile(db, existing.id, {
          email: email ?? existing.email,
          displayName: name ?? existing.displayName,
        });
        if (onEmailChange && email && existing.email && email !== existing.email)
          await onEmailChange(db, { accountId: existing.id, from: existing.email, to: email });
        return { ...existing, email: email ?? existing.email, displayName: name ?? existing.displayName };
      }
      return existing;
    }
    const created = await accountsRepository.insert(db, {
      issuer: auth.issuer,
      subject: auth.subject,
      accountKey: newAccountKey(),
      email: email ?? null,
      displayName: name ?? null,
      depositLimitEurMinor: DEFAULT_DEPOSIT_LIMIT_EUR_MINOR,
    });
    if (created) return created;
    // Another request created it first, or the key collided: look again / draw again.
  }
  throw new Error('could not create an account');
}

/** GET /api/me's answer (domain/contracts/accounts.ts). */
export async function describeAccount(db: Db, account: AccountRow): Promise<Me> {
  const phases = await accountsRepository.verificationPhases(db, account.id);
  const verification = Object.fromEntries(
    VERIFICATION_KINDS.map((kind) => [kind, 'not_enabled']),
  ) as Me['verification'];
  for (const { kind, phase } of phases) verification[kind as VerificationKind] = phase as VerificationPhase;
  return {
    accountKey: account.accountKey,
    depositReference: depositReference(account.accountKey),
    depositLimitEur: eur(account.depositLimitEurMinor),
    email: account.email,
    displayName: account.displayName,
    verification,
  };
}
