/**
 * Payouts: money leaving Muntly for the outside world — crypto to an address on its chain
 * (wallet sends, order deliveries, refunds to a sender) or euros by SEPA transfer (sell proceeds,
 * refunds of bank payments). Faucet rewards and internal transfers never leave the ledger and are
 * no payouts.
 *
 * awaiting_approval — booked and held like a pending one, but four eyes must see it first (large,
 *              from a newly verified or a frozen account): two operators other than the one who
 *              triggered it approve it (then pending), or one rejects it (then failed, money back).
 *              Neither the worker nor a bank export takes it;
 * pending    — booked: the money is held in the payouts clearing account, waiting for the worker;
 * submitting — a worker has handed it to the adapter (a lease: a worker that died mid-way leaves
 *              it to be taken again after the lease, with the same idempotency key);
 * submitted  — an external executor (the signer, the operator's bank) has it and reports back;
 * broadcast  — the signer's transaction is on the network (txid known), not yet confirmed enough;
 * completed  — paid, with the chain's transaction id or the bank's reference (a chain payout: its
 *              transaction has the currency's confirmations);
 * failed     — refused for good; the held money went back to where it came from;
 * returned   — a SEPA payout the payee's bank sent back after paying it out (a statement's return
 *              credit, with the bank's reason code: server/src/modules/bank/returns.ts); the money
 *              is owed to the customer again, until they give another IBAN.
 */
export const PAYOUT_STATUSES = [
  'awaiting_approval',
  'pending',
  'submitting',
  'submitted',
  'broadcast',
  'completed',
  'failed',
  'returned',
] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/**
 * Why a payout waits for approval: its EUR value is above PAYOUT_APPROVAL_ABOVE_EUR (or has no
 * rate to be valued by), the account's bank or ID verification is younger than
 * PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS, or the account's sends are frozen (account protection).
 */
export const PAYOUT_APPROVAL_REASONS = ['above_limit', 'new_account', 'frozen_account'] as const;
export type PayoutApprovalReason = (typeof PAYOUT_APPROVAL_REASONS)[number];

/** Crypto on its chain, or euros by SEPA transfer. */
export const PAYOUT_RAILS = ['chain', 'bank'] as const;
export type PayoutRail = (typeof PAYOUT_RAILS)[number];

/**
 * What the payout is for: each has its own consequence when the payout completes or fails.
 * `payment_refund`: a bank payment no order or deposit claimed, sent back to its payer
 * (server/src/modules/bank); `chain_return`: coins in the unmatched chain queue sent back to an
 * address the sender named (server/src/modules/incoming).
 */
export const PAYOUT_PURPOSES = ['send', 'order_delivery', 'order_refund', 'payment_refund', 'chain_return'] as const;
export type PayoutPurpose = (typeof PAYOUT_PURPOSES)[number];

/** What an executor (the signer, the bank) reports back for a payout. */
export type PayoutResult =
  | { status: 'completed'; txid: string }
  | { status: 'failed'; reason: string }
  | { status: 'submitted' }
  /** The signer: its transaction is on the network; `fee` is this payout's share of its fee (minor units); `inputs` are the outputs it spends (txid:vout). */
  | { status: 'broadcast'; txid: string; fee: bigint; inputs: string[] };

/** A txid or bank reference as an executor may report it: printable, no spaces, bounded. */
export const PAYOUT_TXID_PATTERN = /^[A-Za-z0-9:_.-]{1,128}$/;
