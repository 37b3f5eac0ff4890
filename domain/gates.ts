import { isOwnWalletOnly, type Currency } from './currencies';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
} from './limits';
import { VERIFICATION_KINDS, type VerificationKind, type VerificationPhase } from './verification';
import type { ErrorCode } from './errors';

/**
 * Which verifications an activity needs (docs/decisions/0008). The wallet and exchange call these;
 * they decide from the phases the database holds, never from what a client claims.
 */
export type Phases = Partial<Record<VerificationKind, VerificationPhase>>;

export type Activity = {
  /** The wallet features (reception addresses, own-wallet options) need a verified bank account. */
  usesWallet?: boolean;
  /** EUR volume of the last 7 days including this operation, in cents. */
  weeklyEurMinor?: bigint;
  /** Paying from a business bank account needs business verification. */
  fromBusinessAccount?: boolean;
};

/**
 * The verifications a week's volume needs, lowest threshold first: above `aboveEurMinor` EUR cents
 * exchanged and sent in the rolling week, `kind` must be verified. The one place of this rule: the
 * gates judge by it and the pages that explain it (wallet home, my identity) read it.
 */
export const WEEKLY_VERIFICATIONS = [
  { kind: 'mobile', aboveEurMinor: MOBILE_VERIFICATION_WEEKLY_EUR_MINOR },
  { kind: 'id', aboveEurMinor: ID_VERIFICATION_WEEKLY_EUR_MINOR },
] as const satisfies readonly { kind: VerificationKind; aboveEurMinor: bigint }[];

export function requiredVerifications(activity: Activity): VerificationKind[] {
  const required: VerificationKind[] = [];
  if (activity.usesWallet) required.push('bank');
  const weekly = activity.weeklyEurMinor ?? 0n;
  for (const rule of WEEKLY_VERIFICATIONS) if (weekly > rule.aboveEurMinor) required.push(rule.kind);
  if (activity.fromBusinessAccount) required.push('business');
  return required;
}

/**
 * What a verification unlocks (issue 35): the wallet, a week's volume above an amount, paying
 * from a business bank account, or — a kind no rule above requires — nothing by itself (Muntly
 * asks for it in some cases only).
 */
export type VerificationUnlock =
  | { kind: VerificationKind; unlocks: 'wallet' }
  | { kind: VerificationKind; unlocks: 'weekly'; aboveEurMinor: bigint }
  | { kind: VerificationKind; unlocks: 'business_account' }
  | { kind: VerificationKind; unlocks: 'on_request' };

/**
 * Every verification kind with what it unlocks, read off the rules above (`requiredVerifications`,
 * `WEEKLY_VERIFICATIONS`), in the order a customer needs them: the wallet first, then the weekly
 * volumes from the lowest, then the business account, then the kinds asked for in some cases only.
 */
export function verificationUnlocks(): VerificationUnlock[] {
  const unlocks: VerificationUnlock[] = [
    ...requiredVerifications({ usesWallet: true }).map((kind) => ({ kind, unlocks: 'wallet' as const })),
    ...WEEKLY_VERIFICATIONS.map(({ kind, aboveEurMinor }) => ({ kind, unlocks: 'weekly' as const, aboveEurMinor })),
    ...requiredVerifications({ fromBusinessAccount: true }).map((kind) => ({
      kind,
      unlocks: 'business_account' as const,
    })),
  ];
  const named = new Set(unlocks.map((unlock) => unlock.kind));
  return [
    ...unlocks,
    ...VERIFICATION_KINDS.filter((kind) => !named.has(kind)).map((kind) => ({ kind, unlocks: 'on_request' as const })),
  ];
}

/**
 * The verification a customer should take up next: the first, in `verificationUnlocks`' order,
 * that unlocks the wallet or a week's volume and is not verified yet (null: nothing more is
 * needed for a personal account).
 */
export function nextVerification(phases: Phases): VerificationKind | null {
  return (
    verificationUnlocks().find(
      (unlock) => (unlock.unlocks === 'wallet' || unlock.unlocks === 'weekly') && phases[unlock.kind] !== 'verified',
    )?.kind ?? null
  );
}

/** The verifications the activity needs that are not verified yet (empty: allowed). */
export function missingVerifications(phases: Phases, activity: Activity): VerificationKind[] {
  return requiredVerifications(activity).filter((kind) => phases[kind] !== 'verified');
}

/** A refusal of a gate: the API's error code, the form field it concerns, and when to try again (seconds). */
export type Refusal = { code: ErrorCode; field?: string; retryAfter?: number };

/** The error a set of missing verifications is reported as: the first that blocks, most basic first. */
export function verificationRefusal(missing: readonly VerificationKind[]): ErrorCode | null {
  if (missing.includes('bank')) return 'bank_verification_required';
  if (missing.includes('business')) return 'business_verification_required';
  if (missing.includes('mobile')) return 'mobile_verification_required';
  if (missing.includes('id')) return 'id_verification_required';
  return missing.length > 0 ? 'verification_required' : null;
}

// ---------------------------------------------------------------------------------------------
// The exchange gate: everything that turns one currency into another.

/**
 * Every path by which Muntly turns one currency into another. Each one passes `exchangeRefusal`
 * (through the server's exchange gate, server/src/modules/gates), and the server's types make a
 * conversion impossible to write without the pass that gate gives (docs/security.md "One gate").
 */
export const EXCHANGE_PATHS = ['anonymous_order', 'account_order', 'own_wallet_order', 'deposit_conversion'] as const;
export type ExchangePath = (typeof EXCHANGE_PATHS)[number];

/**
 * What the exchange gate knows of a conversion. The facts a caller does not know yet (no amount
 * before the quote) are left out, and the rules about them are judged when it calls again.
 */
export type ExchangeFacts = {
  path: ExchangePath;
  /** Buy and sell exchange against euros (off while BUY_SELL_ENABLED is false); a deposit converted on arrival is a buy. */
  type: 'buy' | 'sell' | 'swap';
  buySellEnabled: boolean;
  /** The crypto sides (null: euros), and whether each comes from or goes to the customer's own Muntly wallet. */
  from: Currency | null;
  to: Currency | null;
  fromWallet: boolean;
  toWallet: boolean;
  fromBusinessAccount?: boolean;
  /** The account's verification phases; null: no account (anonymous). */
  phases: Phases | null;
  amountEurMinor?: bigint;
  /** No exchange of this customer has completed yet (the first-order cap). */
  newCustomer?: boolean;
  /** EUR the customer exchanged and sent in the rolling week, this conversion included. */
  weeklyEurMinor?: bigint;
  /** An operator looked at this anonymous order, held past the weekly cap, and released it. */
  releasedByOperator?: boolean;
};

/** The exchange rules of docs/decisions/0005 and 0008, in the order a customer should hear them. */
export function exchangeRefusal(facts: ExchangeFacts): Refusal | null {
  const { phases } = facts;
  if ((facts.type === 'buy' || facts.type === 'sell') && !facts.buySellEnabled) return { code: 'buy_sell_disabled' };
  // A partially supported currency cannot arrive from or leave for an outside wallet.
  if (facts.to && isOwnWalletOnly(facts.to) && !facts.toWallet) return { code: 'own_wallet_only', field: 'currencyTo' };
  if (facts.from && isOwnWalletOnly(facts.from) && !facts.fromWallet)
    return { code: 'own_wallet_only', field: 'currencyFrom' };
  const usesWallet = facts.fromWallet || facts.toWallet;
  if (usesWallet && !phases) return { code: 'login_required' };
  if (facts.fromBusinessAccount && !phases) return { code: 'login_required', field: 'fromBusinessAccount' };
  if (phases) {
    const refused = verificationRefusal(
      missingVerifications(phases, { usesWallet, fromBusinessAccount: facts.fromBusinessAccount }),
    );
    if (refused) return { code: refused };
  }
  const amount = facts.amountEurMinor;
  if (amount !== undefined && amount > ORDER_LIMIT_EUR_MINOR) return { code: 'order_limit', field: 'amount' };
  if (amount !== undefined && facts.newCustomer && amount > FIRST_ORDER_LIMIT_EUR_MINOR)
    return { code: 'first_order_limit', field: 'amount' };
  if (facts.weeklyEurMinor !== undefined) {
    if (!phases)
      return facts.weeklyEurMinor > MOBILE_VERIFICATION_WEEKLY_EUR_MINOR && !facts.releasedByOperator
        ? { code: 'weekly_limit_login_required', field: 'amount' }
        : null;
    const refused = verificationRefusal(missingVerifications(phases, { weeklyEurMinor: facts.weeklyEurMinor }));
    if (refused) return { code: refused, field: 'amount' };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The outflow gate: everything that makes value leave an account or Muntly.

/**
 * Every path by which value leaves a customer's account or Muntly. Each one passes
 * `outflowRefusal` (through the server's outflow gate), and a payout cannot be requested without
 * the pass that gate gives.
 * - wallet_send: a send from the wallet, to another Muntly wallet or out;
 * - own_wallet_order: an order paid from the wallet whose proceeds go to an address or IBAN;
 * - order_delivery, order_refund: an order paid from outside, delivered or sent back;
 * - payment_refund: a bank payment nobody claimed, sent back to its payer;
 * - chain_return: coins nobody claimed (the unmatched chain queue), sent back to their sender.
 */
export const OUTFLOW_PATHS = [
  'wallet_send',
  'own_wallet_order',
  'order_delivery',
  'order_refund',
  'payment_refund',
  'chain_return',
] as const;
export type OutflowPath = (typeof OUTFLOW_PATHS)[number];

/** The paths where value leaves a customer's wallet: account protection applies to them. */
export const WALLET_OUTFLOWS = ['wallet_send', 'own_wallet_order'] as const satisfies readonly OutflowPath[];
export const isWalletOutflow = (path: OutflowPath): path is (typeof WALLET_OUTFLOWS)[number] =>
  (WALLET_OUTFLOWS as readonly OutflowPath[]).includes(path);

/** What the outflow gate knows of value leaving a wallet (the other paths carry no customer rule). */
export type WalletOutflowFacts = {
  /** Frozen by the user, a link or an operator. */
  frozen: boolean;
  /** Seconds until a cool-down after a change ends (0: none). */
  pausedForSeconds: number;
  /** The address book's answer for the destination (allow-list mode, the hold). */
  book: 'allowed' | 'not_in_book' | { onHoldForSeconds: number };
  phases: Phases;
  /** Whether the wallet's balance covers the amount and its fee. */
  balanceCovers: boolean;
  /** EUR exchanged and sent in the rolling week, this outflow included. */
  weeklyEurMinor: bigint;
  /**
   * Only when the value moves now (its code accepted): how old the login is in seconds (null: the
   * token does not say, which proves no recent login), whether it used a second factor, and what
   * left the wallet in the last 24 hours, this outflow included.
   */
  login?: {
    ageSeconds: number | null;
    maxAgeSeconds: number;
    secondFactor: boolean;
    dayEurMinor: bigint;
    secondFactorAboveEurMinor: bigint;
  };
};

/**
 * Account protection and the verifications, one order for every wallet outflow: the account may
 * send at all (freeze, cool-down) and with this login (a recent one), from a wallet (a verified
 * bank account), this much (its balance, the week's verifications), to this destination
 * (allow-list mode and its hold), and with a second factor once the last 24 hours pass the
 * threshold — the total, so that splitting an amount into parts that each pass does not help.
 */
export function outflowRefusal(facts: WalletOutflowFacts): Refusal | null {
  const { login } = facts;
  if (facts.frozen) return { code: 'account_frozen' };
  if (facts.pausedForSeconds > 0) return { code: 'sends_paused', retryAfter: facts.pausedForSeconds };
  if (login && (login.ageSeconds === null || login.ageSeconds > login.maxAgeSeconds))
    return { code: 'login_required_recent' };
  const bank = verificationRefusal(missingVerifications(facts.phases, { usesWallet: true }));
  if (bank) return { code: bank };
  if (!facts.balanceCovers) return { code: 'insufficient_balance', field: 'amount' };
  const weekly = verificationRefusal(missingVerifications(facts.phases, { weeklyEurMinor: facts.weeklyEurMinor }));
  if (weekly) return { code: weekly, field: 'amount' };
  if (facts.book === 'not_in_book') return { code: 'address_not_in_book', field: 'address' };
  if (typeof facts.book === 'object')
    return { code: 'address_on_hold', field: 'address', retryAfter: facts.book.onHoldForSeconds };
  if (login && !login.secondFactor && login.dayEurMinor > login.secondFactorAboveEurMinor)
    return { code: 'second_factor_required' };
  return null;
}
