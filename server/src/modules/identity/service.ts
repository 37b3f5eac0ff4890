import { createHash, randomBytes } from 'node:crypto';
import { codeFromBytes, normalizeCode } from '#domain/codes';
import { IDENTITY_MAILBOX, OPERATIONS_MAILBOX } from '#domain/contact';
import { codeIn, DomainError, secondsToWait, type ErrorCode } from '#domain/errors';
import { missingVerifications, verificationRefusal, type Activity, type Phases } from '#domain/gates';
import {
  STEP_ONE_FIELD_ERRORS,
  STEP_ONE_SCHEMAS,
  STEP_TWO_CHANNEL,
  CODE_DAY_MS,
  CODE_MAX_ATTEMPTS,
  RETENTION_YEARS,
  displayIban,
  nextCodeAllowedAt,
  yearsAfter,
  stepTwoCodeTtlMs,
  type StepTwoChannel,
} from '#domain/identity';
import { defaultLanguage, isLanguage, type Language } from '#domain/languages';
import { judgeCode, codeRefusal } from '../../one-time-codes';
import { accountContactsOf, accountKeysOf } from '../accounts/service';
import { recordAudit } from '../audit/service';
import { antiPhishingPhrase, emailText, lockAndListSentTo, send, messageText, phrase } from '../notify/service';
import { identityRepository, type VerificationRow } from './repository';
import type { IdentityKind } from '#domain/contracts/identity';
import type { VerificationKind, VerificationRejectionReason } from '#domain/verification';
import type { Db, Tx } from '../../db/client';
import type { AccountRow } from '../accounts/service';
import type { AnyColumn, SQL } from 'drizzle-orm';

/**
 * Identity verification, per account and kind: not_enabled -> (operator enables) step_1 ->
 * (data submitted, code sent) step_2 -> (code confirmed, or operator checked the document)
 * verified. Invariants: only the owner and operators read the data; a code is single use, bound
 * to its account and kind, dies after 5 wrong attempts and expires; every change keeps the
 * record for at least 5 years (AML).
 */
export const KIND_NAMES: Record<VerificationKind, string> = {
  address: 'address',
  bank: 'bank account',
  business: 'business',
  id: 'ID',
  mobile: 'mobile',
};

const hashCode = (accountId: string, kind: string, code: string) =>
  createHash('sha256').update(`${accountId}:${kind}:${code}`).digest('hex');

const retainUntil = (from: Date) => yearsAfter(from, RETENTION_YEARS);

function newCode(): string {
  for (;;) {
    const code = codeFromBytes(randomBytes(32));
    if (code) return code;
  }
}

/** An operator reads a user's identity data: the read is written to the audit trail first (no row, no data). */
export async function readIdentityAsOperator(
  db: Db,
  account: Pick<AccountRow, 'id' | 'accountKey'>,
  actor: string,
): Promise<IdentityKind[]> {
  await db.transaction((tx) => recordAudit(tx, { actor, action: 'identity.read', target: account.accountKey }));
  return describeIdentity(db, account.id);
}

/**
 * The holder's name of the account's verified bank account, when it is this IBAN: what a SEPA
 * payout to it is addressed to (the payee's bank checks name against IBAN). A read of identity
 * data on an operator's behalf, so it is audited, like readIdentityAsOperator.
 */
export async function verifiedBankHolder(
  tx: Tx,
  accountId: string,
  iban: string,
  actor: string,
  purpose: string,
): Promise<string | undefined> {
  const row = await identityRepository.find(tx, accountId, 'bank');
  const data = row?.phase === 'verified' ? (row.data as { iban?: unknown; beneficiary?: unknown } | null) : null;
  if (!data || data.iban !== iban || typeof data.beneficiary !== 'string') return undefined;
  const key = (await accountKeysOf(tx, [accountId])).get(accountId) ?? null;
  // Called inside the export's transaction: the read and its audit row commit together.
  await recordAudit(tx, { actor, action: 'identity.read', target: key, after: { kind: 'bank', purpose } });
  return data.beneficiary;
}

/** The IBAN of the account's verified bank account (its holder proved it with a transfer), if any. */
export async function verifiedBankIban(db: Db, accountId: string): Promise<string | null> {
  const row = await identityRepository.find(db, accountId, 'bank');
  const iban = row?.phase === 'verified' ? (row.data as { iban?: unknown } | null)?.iban : null;
  return typeof iban === 'string' ? iban : null;
}

/** Operators: each kind's phase and dates, without the data (an account's overview in the console). */
export async function verificationStates(db: Db, accountId: string) {
  return (await identityRepository.list(db, accountId)).map((row) => ({
    kind: row.kind,
    phase: row.phase,
    requestedAt: row.requestedAt?.toISOString() ?? null,
    submittedAt: row.submittedAt?.toISOString() ?? null,
    verifiedAt: row.verifiedAt?.toISOString() ?? null,
    rejection:
      row.rejectedAt && row.rejectionReason ? { reason: row.rejectionReason, at: row.rejectedAt.toISOString() } : null,
  }));
}

/** Every kind of an account, as GET /api/identity answers it (domain/contracts/identity.ts). */
export async function describeIdentity(db: Db, accountId: string): Promise<IdentityKind[]> {
  const now = Date.now();
  const [rows, codes, sent] = await Promise.all([
    identityRepository.list(db, accountId),
    identityRepository.liveCodes(db, accountId),
    identityRepository.codesSentSince(db, accountId, new Date(now - CODE_DAY_MS)),
  ]);
  return rows.map((row) => {
    const code = codes.find((c) => c.kind === row.kind && c.expiresAt.getTime() > now);
    const nextCodeAt = nextCodeAllowedAt(
      sent.filter((c) => c.kind === row.kind).map((c) => c.createdAt.getTime()),
      now,
    );
    return {
      kind: row.kind,
      phase: row.phase,
      channel: STEP_TWO_CHANNEL[row.kind],
      data: (row.data as Record<string, unknown> | null) ?? null,
      submittedAt: row.submittedAt?.toISOString() ?? null,
      verifiedAt: row.verifiedAt?.toISOString() ?? null,
      requestedAt: row.requestedAt?.toISOString() ?? null,
      retainUntil: row.retainUntil?.toISOString() ?? null,
      dataDeletedAt: row.dataDeletedAt?.toISOString() ?? null,
      rejection:
        row.rejectedAt && row.rejectionReason
          ? { reason: row.rejectionReason, at: row.rejectedAt.toISOString() }
          : null,
      codeExpiresAt: code?.expiresAt.toISOString() ?? null,
      attemptsLeft: code ? CODE_MAX_ATTEMPTS - code.attempts : null,
      nextCodeAt: nextCodeAt === null ? null : new Date(nextCodeAt).toISOString(),
    };
  });
}

/** Validates step 1 for a kind; a bad field is a 400 naming the field. */
export function parseStepOne(kind: VerificationKind, body: unknown): Record<string, unknown> {
  const result = STEP_ONE_SCHEMAS[kind].safeParse(body ?? {});
  if (result.success) return result.data as Record<string, unknown>;
  const issue = result.error.issues[0]!;
  const field = String(issue.path[0] ?? '');
  const code =
    codeIn(issue.message, STEP_ONE_FIELD_ERRORS) ??
    (issue.code === 'invalid_type' || issue.code === 'invalid_value' ? 'required' : 'validation_failed');
  throw new DomainError(code, field || undefined);
}

function notEnabled(kind: VerificationKind): never {
  throw new DomainError(
    'verification_not_enabled',
    undefined,
    `Ask for ${KIND_NAMES[kind]} verification with "Request this verification" on the identity verification page.`,
  );
}

/** Step 1: store the data, send the code through the kind's channel, move to step 2. */
export async function submitStepOne(
  db: Db,
  input: { account: AccountRow; kind: VerificationKind; data: Record<string, unknown>; language: Language },
): Promise<void> {
  const { account, kind, data, language } = input;
  await db.transaction(async (tx) => {
    const row = await identityRepository.lock(tx, account.id, kind);
    if (!row || row.phase === 'not_enabled') notEnabled(kind);
    if (row.phase === 'verified') throw new DomainError('already_verified');
    const now = new Date();
    const keepUntil = retainUntil(now);
    // A new submission answers an operator's rejection: it is no longer shown.
    await identityRepository.update(tx, account.id, kind, {
      data,
      phase: 'step_2',
      submittedAt: now,
      retainUntil: keepUntil,
      dataDeletedAt: null,
      submitLanguage: language,
      rejectedAt: null,
      rejectionReason: null,
    });
    await identityRepository.revokeLiveCodes(tx, account.id, kind);

    const channel = STEP_TWO_CHANNEL[kind];
    if (channel === 'document') {
      // ID: the user emails a copy of the document; an operator checks it and marks it verified.
      if (account.email)
        await send(tx, {
          channel: 'email',
          recipient: account.email,
          accountId: account.id,
          ...(await idInstructions(tx, account.id, language)),
        });
      return;
    }
    const recipient = codeRecipient(channel, data, account);
    if (!recipient) return;
    // Checked under the row lock (one submission of a kind at a time) and, for the paid channels,
    // a lock on the recipient (one account after another): each code costs money and reaches a
    // person, so a new one waits (CODE_RESEND_AFTER_MS, CODES_PER_DAY in domain/identity.ts).
    const since = new Date(now.getTime() - CODE_DAY_MS);
    const sent = (await identityRepository.codesSentSince(tx, account.id, since))
      .filter((c) => c.kind === kind)
      .map((c) => c.createdAt.getTime());
    const toRecipient = channel === 'email' ? [] : await lockAndListSentTo(tx, channel, recipient, since);
    const next = Math.max(
      nextCodeAllowedAt(sent, now.getTime()) ?? 0,
      nextCodeAllowedAt(
        toRecipient.map((d) => d.getTime()),
        now.getTime(),
        0,
      ) ?? 0,
    );
    if (next > now.getTime())
      throw new DomainError('code_requested_too_soon', undefined, undefined, secondsToWait(next - now.getTime()));

    const code = newCode();
    await identityRepository.insertCode(tx, {
      accountId: account.id,
      kind,
      codeHash: hashCode(account.id, kind, code),
      // Days for a letter or a transfer, minutes for SMS and email (domain/identity.ts).
      expiresAt: new Date(now.getTime() + stepTwoCodeTtlMs(channel)),
    });
    const name = [data.firstName, data.lastName].filter(Boolean).join(' ') || account.displayName || '';
    const text =
      channel === 'sms'
        ? messageText(language, 'codeSms', { code })
        : channel === 'post'
          ? messageText(language, 'codeLetter', { code, name })
          : channel === 'bank'
            ? messageText(language, 'codeTransfer', { code, beneficiary: String(data.beneficiary) })
            : emailText(language, 'codeEmail', { code, name });
    // The message carries the identity data it was sent to (number, address, IBAN, name): it is
    // deleted with that data's retention, not kept with the account's records.
    await send(tx, { channel, recipient, accountId: account.id, retainUntil: keepUntil, ...text });
  });
}

/**
 * The email that asks for the copy of the ID (issue 35). It names the identity mailbox only under
 * the account's anti-phishing phrase, which `send` puts at its top: an email without the phrase
 * could be a fake's, and a fake would name its own address. Without a phrase it sends the user to
 * the identity page, where they see the address logged in.
 */
async function idInstructions(db: Db, accountId: string, language: Language) {
  return (await antiPhishingPhrase(db, accountId))
    ? emailText(language, 'idInstructions', { email: IDENTITY_MAILBOX })
    : emailText(language, 'idInstructionsNoPhrase', {});
}

/** Where a kind's code goes: the phone number, the postal address, the IBAN, or the account's email. */
function codeRecipient(
  channel: Exclude<StepTwoChannel, 'document'>,
  data: Record<string, unknown>,
  account: AccountRow,
): string | null {
  if (channel === 'sms') return String(data.mobile);
  if (channel === 'post')
    return [data.street, `${data.zip} ${data.city}`, data.state, data.country].filter(Boolean).join(', ');
  if (channel === 'bank') return displayIban(String(data.iban));
  return account.email ?? null;
}

type ConfirmOutcome = { ok: true } | { ok: false; code: ErrorCode; message?: string };

/** Step 2: the code. A wrong attempt is counted (and committed) before the error is answered. */
export async function confirmCode(
  db: Db,
  input: { account: AccountRow; kind: VerificationKind; code: string },
): Promise<void> {
  const normalized = normalizeCode(input.code);
  if (!normalized) throw new DomainError('invalid_code_format', 'code');
  const { account, kind } = input;
  const outcome = await db.transaction(async (tx): Promise<ConfirmOutcome> => {
    const row = await identityRepository.lock(tx, account.id, kind);
    if (!row || row.phase === 'not_enabled') notEnabled(kind);
    if (row.phase === 'verified') return { ok: false, code: 'already_verified' };
    if (row.phase !== 'step_2') return { ok: false, code: 'no_code_pending' };
    const live = await identityRepository.lockLiveCode(tx, account.id, kind);
    if (!live) return { ok: false, code: 'code_expired' };
    const verdict = judgeCode(
      { hash: live.codeHash, attempts: live.attempts, expiresAt: live.expiresAt },
      hashCode(account.id, kind, normalized),
    );
    if (verdict.kind === 'wrong') await identityRepository.countWrongAttempt(tx, live.id, verdict.dead);
    if (verdict.kind !== 'valid') return { ok: false, ...codeRefusal(verdict) };
    const now = new Date();
    await identityRepository.markCodeUsed(tx, live.id);
    await identityRepository.update(tx, account.id, kind, {
      phase: 'verified',
      verifiedAt: now,
      retainUntil: retainUntil(now),
    });
    return { ok: true };
  });
  if (!outcome.ok) throw new DomainError(outcome.code, 'code', outcome.message);
}

/**
 * The user asks for a kind to be enabled (docs/decisions/0007: kinds are enabled per user on request). The
 * first request is stored with its date and language and mailed to the operations mailbox, in the
 * same transaction; asking again while it waits, or for a kind already enabled, changes nothing
 * and answers the state as it is (`created: false`).
 */
export async function requestKind(
  db: Db,
  input: { account: AccountRow; kind: VerificationKind; language: Language },
): Promise<{ requestedAt: Date | null; created: boolean }> {
  const { account, kind, language } = input;
  return db.transaction(async (tx) => {
    const row = await identityRepository.lock(tx, account.id, kind);
    if (!row) throw new DomainError('validation_failed', 'kind');
    if (row.phase !== 'not_enabled' || row.requestedAt) return { requestedAt: row.requestedAt, created: false };
    const now = new Date();
    await identityRepository.update(tx, account.id, kind, { requestedAt: now, requestLanguage: language });
    const email = account.email ?? '(no email)';
    await send(tx, {
      channel: 'email',
      recipient: OPERATIONS_MAILBOX,
      accountId: account.id,
      ...emailText(defaultLanguage, 'verificationRequested', {
        kind: KIND_NAMES[kind],
        email,
        accountKey: account.accountKey,
        command: `npm run ops -- enable-verification ${email} ${kind}`,
        listCommand: 'npm run ops -- verification-requests',
      }),
    });
    await recordAudit(tx, {
      actor: `account:${account.accountKey}`,
      action: 'verification.request',
      target: account.accountKey,
      before: { kind, requested: false },
      after: { kind, requested: true },
    });
    return { requestedAt: now, created: true };
  });
}

type OperatedAccount = Pick<AccountRow, 'id' | 'accountKey' | 'email'>;

/** Operator: enable a kind for a user (not_enabled -> step_1); a user who asked for it gets an email. */
export async function enableKind(
  db: Db,
  account: OperatedAccount,
  kind: VerificationKind,
  actor: string,
): Promise<VerificationRow['phase']> {
  return db.transaction(async (tx) => {
    const row = await identityRepository.lock(tx, account.id, kind);
    if (!row) throw new DomainError('validation_failed', 'kind');
    const phase = row.phase === 'not_enabled' ? 'step_1' : row.phase;
    if (row.phase === 'not_enabled') await identityRepository.update(tx, account.id, kind, { phase });
    if (row.phase === 'not_enabled' && row.requestedAt && account.email) {
      const language = row.requestLanguage && isLanguage(row.requestLanguage) ? row.requestLanguage : defaultLanguage;
      await send(tx, {
        channel: 'email',
        recipient: account.email,
        accountId: account.id,
        ...emailText(language, 'verificationEnabled', { kind: phrase(language, 'verificationKinds', kind) }),
      });
    }
    await recordAudit(tx, {
      actor,
      action: 'verification.enable',
      target: account.accountKey,
      before: { kind, phase: row.phase },
      after: { kind, phase },
    });
    return phase;
  });
}

/**
 * The customer's email and account key in front of each row of an operator's list, asked of
 * accounts (the table is theirs); a row whose account is gone is left out, as the join did.
 */
async function withContacts<Row extends { accountId: string }>(
  db: Db,
  rows: Row[],
): Promise<({ email: string | null; accountKey: string } & Omit<Row, 'accountId'>)[]> {
  const contacts = await accountContactsOf(db, [...new Set(rows.map((row) => row.accountId))]);
  return rows.flatMap(({ accountId, ...row }) => {
    const contact = contacts.get(accountId);
    return contact ? [{ email: contact.email, accountKey: contact.accountKey, ...row }] : [];
  });
}

/** Operator: the kinds users asked to have enabled, oldest first (`all`: also those enabled since). */
export async function listVerificationRequests(db: Db, all = false) {
  const rows = await withContacts(db, await identityRepository.listRequested(db, !all));
  return rows.map((row) => ({ ...row, requestedAt: row.requestedAt!.toISOString() }));
}

/**
 * Operator: mark a kind verified after checking a document by hand. A document the user emailed
 * (the ID) is confirmed to them by email, in the language they submitted in: under their
 * anti-phishing phrase, as every email to them, so the receipt of a copy of their ID is
 * recognizably Muntly's (issue 35).
 */
export async function markVerified(
  db: Db,
  account: OperatedAccount,
  kind: VerificationKind,
  actor: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const now = new Date();
    const row = await identityRepository.lock(tx, account.id, kind);
    if (!row) throw new DomainError('validation_failed', 'kind');
    await identityRepository.revokeLiveCodes(tx, account.id, kind);
    await identityRepository.update(tx, account.id, kind, {
      phase: 'verified',
      verifiedAt: now,
      retainUntil: retainUntil(now),
      rejectedAt: null,
      rejectionReason: null,
    });
    if (STEP_TWO_CHANNEL[kind] === 'document' && row.phase === 'step_2' && account.email) {
      const stored = row.submitLanguage ?? row.requestLanguage;
      const language = stored && isLanguage(stored) ? stored : defaultLanguage;
      await send(tx, {
        channel: 'email',
        recipient: account.email,
        accountId: account.id,
        ...emailText(language, 'idVerified', {}),
      });
    }
    await recordAudit(tx, {
      actor,
      action: 'verification.verify',
      target: account.accountKey,
      before: { kind, phase: row.phase },
      after: { kind, phase: 'verified' },
    });
  });
}

/**
 * Operator: the submitted details (or the emailed document) do not do, for `reason`. The kind goes
 * back to step 1, where the customer reads why in their language and submits again; a live code
 * dies with it. Only a submission waiting for its check or code (step 2) can be rejected. The
 * customer is emailed in the language they submitted in.
 */
export async function rejectVerification(
  db: Db,
  account: OperatedAccount,
  kind: VerificationKind,
  reason: VerificationRejectionReason,
  actor: string,
): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await identityRepository.lock(tx, account.id, kind);
    if (!row) throw new DomainError('validation_failed', 'kind');
    if (row.phase !== 'step_2') throw new DomainError('verification_not_submitted');
    const now = new Date();
    await identityRepository.revokeLiveCodes(tx, account.id, kind);
    await identityRepository.update(tx, account.id, kind, {
      phase: 'step_1',
      rejectedAt: now,
      rejectionReason: reason,
    });
    if (account.email) {
      const stored = row.submitLanguage ?? row.requestLanguage;
      const language = stored && isLanguage(stored) ? stored : defaultLanguage;
      await send(tx, {
        channel: 'email',
        recipient: account.email,
        accountId: account.id,
        ...emailText(language, 'verificationRejected', {
          kind: phrase(language, 'verificationKinds', kind),
          reason: phrase(language, 'verificationRejectionReasons', reason),
        }),
      });
    }
    await recordAudit(tx, {
      actor,
      action: 'verification.reject',
      target: account.accountKey,
      before: { kind, phase: row.phase },
      after: { kind, phase: 'step_1', reason },
    });
  });
}

/** Kinds whose second step is a document an operator checks by hand (the ID). */
const DOCUMENT_KINDS = (Object.keys(STEP_TWO_CHANNEL) as VerificationKind[]).filter(
  (kind) => STEP_TWO_CHANNEL[kind] === 'document',
);

/** Operator: submissions waiting for a document to be checked by hand, oldest first. */
export async function listDocumentsWaiting(db: Db) {
  const rows = await withContacts(db, await identityRepository.listSubmitted(db, DOCUMENT_KINDS));
  return rows.map((row) => ({ ...row, submittedAt: row.submittedAt?.toISOString() ?? null }));
}

/** Operator: how many customers wait for us — kinds asked for and not enabled, documents not checked. */
export async function verificationQueueCounts(db: Db): Promise<{ requests: number; documents: number }> {
  return identityRepository.queueCounts(db, DOCUMENT_KINDS);
}

/** When the latest of these kinds was verified for the account, or null when none is (the payouts' four eyes ask it). */
export async function lastVerifiedAt(
  db: Db,
  accountId: string,
  kinds: readonly VerificationKind[],
): Promise<Date | null> {
  const dates = (await identityRepository.list(db, accountId))
    .filter((row) => row.phase === 'verified' && row.verifiedAt && kinds.includes(row.kind))
    .map((row) => row.verifiedAt!.getTime());
  return dates.length ? new Date(Math.max(...dates)) : null;
}

/**
 * The gate the wallet and the exchange call before acting: reads the phases from the database
 * (inside the caller's transaction when given one) and refuses with the code the site explains.
 */
/** The account's verification phases, as the database holds them (what the gates judge by). */
export async function verificationPhases(db: Db, accountId: string): Promise<Phases> {
  const rows = await identityRepository.list(db, accountId);
  return Object.fromEntries(rows.map((row) => [row.kind, row.phase])) as Phases;
}

export async function requireVerifications(db: Db, accountId: string, activity: Activity): Promise<void> {
  const missing = missingVerifications(await verificationPhases(db, accountId), activity);
  const refused = verificationRefusal(missing);
  if (refused === 'verification_required')
    throw new DomainError(refused, undefined, `Verify first: ${missing.map((kind) => KIND_NAMES[kind]).join(', ')}.`);
  if (refused) throw new DomainError(refused);
}

/**
 * Retention: identity data whose retention date has passed is deleted (the privacy policy's
 * promise). The phase and its dates stay, so a verified account keeps its limits; a verification
 * still waiting for its code cannot be finished without its data, so it goes back to step 1 and
 * its code dies. Each deletion is written to the audit trail (by `actor`: the job, or the
 * operator who ran it). Safe to run in every replica at once: a row another run has just erased
 * no longer matches `retain_until < now` once its lock is free. `relationshipEnded`: the AML
 * condition the retention job adds (modules/retention/repository.ts): `retain_until` is then the
 * earliest date, and the data stays while the customer's relationship goes on.
 */
export async function deleteExpiredIdentityData(
  db: Db,
  now = new Date(),
  actor = 'retention',
  relationshipEnded?: (accountId: AnyColumn) => SQL,
): Promise<number> {
  return db.transaction(async (tx) => {
    const erased = await identityRepository.eraseExpired(tx, now, relationshipEnded);
    for (const row of erased) {
      if (row.phase === 'step_1') await identityRepository.revokeLiveCodes(tx, row.accountId, row.kind);
    }
    const keys = await accountKeysOf(
      tx,
      erased.map((row) => row.accountId),
    );
    for (const row of erased) {
      await recordAudit(tx, {
        actor,
        action: 'identity.data_deleted',
        target: keys.get(row.accountId) ?? null,
        before: { kind: row.kind, data: true },
        after: { kind: row.kind, data: false, phase: row.phase },
      });
    }
    return erased.length;
  });
}
