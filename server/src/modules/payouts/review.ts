import { emailLinkKey } from '#domain/customer-key';
import { EMAIL_PATTERN } from '#domain/email';
import { DomainError } from '#domain/errors';
import { operatorActor } from '#domain/operators';
import { findAccountById, findAccountBySubject } from '../accounts/service';
import { recordAudit } from '../audit/service';
import { payoutsRepository, type PayoutRow } from './repository';
import { bookFailure, payoutView, type PayoutOutcomes } from './service';
import type { Db, Tx } from '../../db/client';

/**
 * Operators decide on a payout waiting in `awaiting_approval` (approval.ts says which wait). The
 * rule: two approvals by two different operators, neither of whom triggered the payout. The first
 * approval is recorded as the review and the payout keeps waiting; the second, by another
 * operator, makes it pending for the worker. Any operator but the one who triggered it may reject
 * it instead: it fails as a refused payout does (the money goes back to its source, the purpose's
 * `failed` step runs), with the reason stored.
 *
 * Each decision locks the row first, so two operators acting at once are taken one after the
 * other: of two approvals the first reviews and the second approves, and of an approval and a
 * rejection racing, the second finds the payout no longer waiting. The database's
 * `payouts_four_eyes` check holds the rule too.
 *
 * `operator` is the ops token's issuer and subject (`actorOf` in plugins/auth.ts).
 */
async function lockWaiting(tx: Tx, id: string): Promise<PayoutRow> {
  const row = await payoutsRepository.lock(tx, id);
  if (!row) throw new DomainError('not_found');
  if (row.status !== 'awaiting_approval') throw new DomainError('payout_not_awaiting_approval');
  return row;
}

/** What the audit trail keeps of a decision: the payout's status, amount and who has approved it so far. */
function decisionState(row: PayoutRow) {
  return {
    status: row.status,
    purpose: row.purpose,
    amount: payoutView(row).amount,
    currency: row.currency,
    approvalReason: row.approvalReason,
    reviewedBy: row.reviewedBy,
    approvedBy: row.approvedBy,
  };
}

/**
 * An operator as four eyes know them: who acts (the audit trail's actor), and the customer they
 * may also be — the account of their login, and the link keys of their email addresses (the
 * token's, the account's, and locally the one `ops --as <email>` names in the subject).
 */
export type Operator = { actor: string; accountId: string | null; emailKeys: string[] };

export async function operatorOf(db: Db, auth: { issuer: string; subject: string; email?: string }): Promise<Operator> {
  const account = await findAccountBySubject(db, auth.issuer, auth.subject);
  const named = auth.subject.slice(auth.subject.indexOf(':') + 1);
  const emails = [
    auth.email,
    account?.email,
    auth.subject.includes(':') && EMAIL_PATTERN.test(named) ? named : undefined,
  ].filter((email): email is string => Boolean(email));
  return {
    actor: operatorActor(auth.subject),
    accountId: account?.id ?? null,
    emailKeys: [...new Set(emails.map(emailLinkKey))],
  };
}

/**
 * An operator never decides on money that goes to themselves (a payout, a held order's release):
 * refused when its account is theirs, or one of its email link keys.
 */
export function refuseOwnMoney(
  operator: Operator,
  beneficiary: { accountId: string | null; emailKeys: (string | null)[] },
): void {
  if (
    (beneficiary.accountId && beneficiary.accountId === operator.accountId) ||
    beneficiary.emailKeys.some((key) => key !== null && operator.emailKeys.includes(key))
  ) {
    throw new DomainError('approval_beneficiary');
  }
}

/** A payout's beneficiary: the order's account and email key, or the send's owner, with the account's email. */
async function refuseBeneficiary(tx: Tx, row: PayoutRow, operator: Operator): Promise<void> {
  const beneficiary = await payoutsRepository.beneficiary(tx, row.id);
  if (!beneficiary) return;
  // The account's email comes from accounts, whose table it is.
  const accountEmail = beneficiary.accountId
    ? ((await findAccountById(tx, beneficiary.accountId))?.email ?? null)
    : null;
  refuseOwnMoney(operator, {
    accountId: beneficiary.accountId,
    emailKeys: [beneficiary.emailKey, accountEmail && emailLinkKey(accountEmail)],
  });
}

/** One operator's approval: the review, or the second approval that releases the payout. */
export async function approvePayout(
  db: Db,
  outcomes: PayoutOutcomes,
  input: { id: string; operator: Operator },
): Promise<{ payout: PayoutRow; released: boolean }> {
  const operator = input.operator.actor;
  return db.transaction(async (tx) => {
    const row = await lockWaiting(tx, input.id);
    if (row.triggeredBy === operator) throw new DomainError('approval_own_payout');
    await refuseBeneficiary(tx, row, input.operator);
    if (row.reviewedBy === operator) throw new DomainError('approval_same_operator');
    const now = new Date();
    if (!row.reviewedBy) {
      const payout = await payoutsRepository.update(tx, row.id, { reviewedBy: operator, reviewedAt: now });
      await recordAudit(tx, {
        actor: operator,
        action: 'payout.review',
        target: row.id,
        before: decisionState(row),
        after: decisionState(payout),
      });
      return { payout, released: false };
    }
    const payout = await payoutsRepository.update(tx, row.id, {
      status: 'pending',
      approvedBy: operator,
      approvedAt: now,
    });
    await outcomes[row.purpose].approved(tx, payout);
    await recordAudit(tx, {
      actor: operator,
      action: 'payout.approve',
      target: row.id,
      before: decisionState(row),
      after: decisionState(payout),
    });
    return { payout, released: true };
  });
}

/** An operator refuses a waiting payout: it fails, and its money goes back where it came from. */
export async function rejectPayout(
  db: Db,
  outcomes: PayoutOutcomes,
  input: { id: string; operator: string; reason: string },
): Promise<PayoutRow> {
  return db.transaction(async (tx) => {
    const row = await lockWaiting(tx, input.id);
    if (row.triggeredBy === input.operator) throw new DomainError('approval_own_payout');
    const payout = await bookFailure(tx, outcomes, row, { reason: input.reason, rejectedBy: input.operator });
    await recordAudit(tx, {
      actor: input.operator,
      action: 'payout.reject',
      target: row.id,
      before: decisionState(row),
      after: { ...decisionState(payout), reason: input.reason },
    });
    return payout;
  });
}
