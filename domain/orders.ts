import type { OrderType } from './fees';

/**
 * The states an order goes through: one definition for the order form and the API. What the site
 * sends and the API answers is the contract in domain/contracts/orders.ts.
 */
export type { OrderType };

/**
 * The status lists below are the one source of each enum: its TypeScript type, the API's zod
 * enum, the database column's type and its check constraint (server/src/db/schema.ts).
 */

/** The orders a customer places (each with its fee in domain/fees.ts). */
export const PLACED_ORDER_TYPES = ['buy', 'sell', 'swap'] as const satisfies readonly OrderType[];

/** Every order's type: the placed ones and a bank deposit into the wallet, which appears among the user's orders. */
export const ORDER_TYPES = [...PLACED_ORDER_TYPES, 'deposit'] as const;
export type AnyOrderType = (typeof ORDER_TYPES)[number];

/** new: waiting for the money; processing: it arrived; then completed, with success or a refund. */
export const ORDER_STATUSES = ['new', 'processing', 'completed_success', 'completed_failure'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** Not completed yet: the live views follow an order while it is open. */
export const isOpenOrder = (status: OrderStatus) => status === 'new' || status === 'processing';

/** Where the money of a failed order goes back to. */
export const REFUNDS = ['bank', 'wallet', 'sender'] as const;
export type Refund = (typeof REFUNDS)[number];

/**
 * Why an order completed with a failure (and was refunded). Some are error codes of the API as
 * well (the same rule refused at ordering time); the others happen only after the money arrived.
 */
export const FAILURE_REASONS = [
  'amount_mismatch',
  'order_limit',
  'first_order_limit',
  'network_fee_exceeds_amount',
  'invalid_amount',
  'deposit_limit',
  'payout_failed',
  'expired',
  // The exchange gate's refusals when the money is here (domain/gates.ts): the rules at conversion.
  'buy_sell_disabled',
  'own_wallet_only',
  'bank_verification_required',
  'business_verification_required',
  'mobile_verification_required',
  'id_verification_required',
  'weekly_limit_login_required',
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];
export const isFailureReason = (value: string): value is FailureReason =>
  (FAILURE_REASONS as readonly string[]).includes(value);
