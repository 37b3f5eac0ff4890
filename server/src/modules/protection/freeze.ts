import { createHash, randomBytes } from 'node:crypto';
import { codeFromBytes, normalizeCode } from '#domain/codes';
import { DomainError, secondsToWait } from '#domain/errors';
import { CODE_TTL_MINUTES } from '#domain/identity';
import { defaultLanguage, isLanguage } from '#domain/languages';
import { codeRefusal, judgeCode } from '../../one-time-codes';
import { recordAudit } from '../audit/service';
import { phrase as notifyPhrase } from '../notify/service';
import { isFrozen, mailChange, recordEvent, type ProtectionContext } from './context';
import { mailTime, sendSecurityEmail } from './mail';
import { protectionOf } from './outflow';
import { protectionRepository, type ProtectionRow } from './repository';
import type { AuditState } from '#domain/audit';
import type { ErrorCode } from '#domain/errors';
import type { Db, Tx } from '../../db/client';

// Account protection (the invariants: service.ts): freeze and unfreeze.

const unfreezeCodeHash = (accountId: string, code: string) =>
  createHash('sha256').update(`unfreeze:${accountId}:${code}`).digest('hex');

/** Freezes the account's sends at once (from the site, or by an email's link inside the caller's transaction). */
export async function freeze(
  db: Db | Tx,
  ctx: ProtectionContext,
  input: { account: { id: string; email: string | null }; byLink: boolean },
): Promise<void> {
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
export async function requestUnfreeze(
  db: Db,
  ctx: ProtectionContext,
  input: { account: { id: string; email: string | null } },
): Promise<void> {
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
    if (now.getTime() - issuedAt < 60_000)
      throw new DomainError(
        'code_requested_too_soon',
        undefined,
        undefined,
        secondsToWait(issuedAt + 60_000 - now.getTime()),
      );
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
export async function confirmUnfreeze(
  db: Db,
  ctx: ProtectionContext,
  input: { account: { id: string; email: string | null }; code: string },
): Promise<void> {
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
    const verdict = judgeCode(
      { hash: row.unfreezeCodeHash, attempts: row.unfreezeCodeAttempts, expiresAt: row.unfreezeCodeExpiresAt },
      unfreezeCodeHash(account.id, code),
    );
    if (verdict.kind === 'wrong')
      await protectionRepository.updateProtection(tx, account.id, { unfreezeCodeAttempts: verdict.attempts });
    if (verdict.kind !== 'valid') return codeRefusal(verdict);
    const unfreezesAt = new Date(now.getTime() + ctx.settings.unfreezeCooldownMs);
    await protectionRepository.updateProtection(tx, account.id, {
      unfreezesAt,
      unfreezeCodeHash: null,
      unfreezeCodeAttempts: 0,
      unfreezeCodeExpiresAt: null,
    });
    await recordEvent(tx, account.id, 'unfreeze_confirmed', ctx.client);
    await mailChange(tx, ctx, account, 'unfreeze_confirmed', { until: unfreezesAt });
    return null;
  });
  if (refusal)
    throw new DomainError(
      refusal.code,
      ['not_frozen', 'no_code_pending', 'frozen_by_operator'].includes(refusal.code) ? undefined : 'code',
      refusal.message,
    );
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
async function operatorContext(
  db: Db,
  operator: Omit<ProtectionContext, 'client' | 'language'>,
  accountId: string,
): Promise<ProtectionContext> {
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
    await mailChange(tx, ctx, account, 'frozen_by_operator', {
      detail: notifyPhrase(ctx.language, 'security', 'operatorFrozenHow'),
    });
    await recordAudit(tx, {
      actor: input.actor,
      action: 'account.freeze',
      target: account.accountKey,
      before: freezeState(row, now),
      after: { ...freezeState(updated, now), reason: input.reason },
    });
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
    await recordAudit(tx, {
      actor: input.actor,
      action: 'account.unfreeze',
      target: account.accountKey,
      before: freezeState(row, now),
      after: { ...freezeState(updated, now), reason: input.reason },
    });
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
