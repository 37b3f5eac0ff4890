import { knownDecimals } from '#domain/currencies';
import { decimalToMinor, EUR_DECIMALS } from '#domain/money';
import { eurValueMinor } from '#domain/quotes';
import { lastVerifiedAt } from '../identity/service';
import type { PayoutApprovalReason } from '#domain/payouts';
import type { Config } from '../../config';
import type { Db, Tx } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

/**
 * Four eyes on payouts: which payouts wait in `awaiting_approval` instead of going to the worker.
 * The rule, one place for it (docs/operating.md "Payouts waiting for approval"):
 * - frozen_account: the account's sends are frozen (account protection's hook, `accountFrozen`);
 * - above_limit: the amount was worth more than PAYOUT_APPROVAL_ABOVE_EUR when the payout was
 *   requested (crypto valued at the rate of that moment; a currency without a rate cannot be
 *   shown to be below, so it waits too);
 * - new_account: the account's bank or ID verification was verified less than
 *   PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS days ago. An order placed without an account is judged by
 *   its amount only.
 * A waiting payout needs approvals from two different operators, neither of whom triggered it
 * (`review.ts`); any operator but the one who triggered it may reject it.
 */
export type PayoutApproval = {
  /** Above this EUR value (cents), a payout waits. */
  aboveEurMinor: bigint;
  /** A bank or ID verification younger than this many days makes the account's payouts wait (0: never). */
  newAccountDays: number;
  rates: RatesAdapter;
  /**
   * Account protection plugs in here (protection/service.ts accountFrozen, wired in app.ts): true
   * when the account's sends are frozen, so that any payout of it waits for approval.
   */
  accountFrozen?: (db: Db, accountId: string) => Promise<boolean>;
  /** The key the API and the signer share (instruction.ts): every chain payout carries its MAC. None: chain payouts carry none (the simulated chain pays them). */
  instructionKey?: Uint8Array;
};

/** The policy PAYOUT_APPROVAL_ABOVE_EUR and PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS configure. */
export function payoutApproval(
  config: Pick<Config, 'PAYOUT_APPROVAL_ABOVE_EUR' | 'PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS'>,
  rates: RatesAdapter,
  hooks: Pick<PayoutApproval, 'accountFrozen' | 'instructionKey'> = {},
): PayoutApproval {
  return {
    aboveEurMinor: decimalToMinor(config.PAYOUT_APPROVAL_ABOVE_EUR, EUR_DECIMALS)!,
    newAccountDays: config.PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS,
    rates,
    ...hooks,
  };
}

/** What the caller of `requestPayout` knows about who the payout is for and who asked for it. */
export type ApprovalContext = {
  policy: PayoutApproval;
  /** The customer's account (its verification dates count); null: an order placed without an account. */
  accountId: string | null;
  /** The operator whose action created the payout (issuer + subject); null or absent: the customer. */
  triggeredBy?: string | null;
};

const DAY_MS = 86_400_000;

/** The payout's EUR value now (null: no rate), and why it must wait for approval (null: it need not). */
export async function approvalNeeded(
  tx: Tx,
  context: ApprovalContext,
  payout: { currency: string; amount: bigint },
): Promise<{ eurValue: bigint | null; reason: PayoutApprovalReason | null }> {
  const { policy, accountId } = context;
  const eurValue = await valueInEur(policy.rates, payout.currency, payout.amount);
  if (accountId && policy.accountFrozen && (await policy.accountFrozen(tx, accountId)))
    return { eurValue, reason: 'frozen_account' };
  if (eurValue === null || eurValue > policy.aboveEurMinor) return { eurValue, reason: 'above_limit' };
  if (accountId && policy.newAccountDays > 0) {
    const verified = await lastVerifiedAt(tx, accountId, ['bank', 'id']);
    if (verified && verified.getTime() > Date.now() - policy.newAccountDays * DAY_MS)
      return { eurValue, reason: 'new_account' };
  }
  return { eurValue, reason: null };
}

/**
 * The EUR value at the current rate (the rates feed caches it: the callers asked it moments ago).
 * No rate, or no answer from the feed: null, and the payout waits for approval rather than the
 * booking failing.
 */
async function valueInEur(rates: RatesAdapter, currency: string, amount: bigint): Promise<bigint | null> {
  if (currency === 'EUR') return amount;
  const rate = await rates.current().then(
    (current) => current.rates[currency],
    () => undefined,
  );
  return rate ? eurValueMinor(amount, knownDecimals(currency), rate) : null;
}
