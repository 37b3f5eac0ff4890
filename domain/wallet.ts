import { NETWORK_FEES_MINOR } from './fees';

/**
 * A wallet send's status, the one source of its type, the API's zod enum and the database
 * column with its check constraint: awaiting_code (the emailed code confirms it) -> processing
 * (booked, being paid out; an internal send skips it) -> completed, or failed. A send whose payout
 * needs four eyes (domain/payouts.ts) is awaiting_approval between the code and processing, and
 * failed when an operator rejects it.
 */
export const SEND_STATUSES = ['awaiting_code', 'awaiting_approval', 'processing', 'completed', 'failed'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/**
 * The network fee of a send to an external address, in the currency's minor units (none to
 * another Muntly wallet: the API decides that from the address).
 */
export const externalNetworkFeeMinor = (currency: string): bigint => NETWORK_FEES_MINOR[currency] ?? 0n;

/** The most a send can be: the balance less the network fee, never below zero. */
export function maxSendableMinor(balanceMinor: bigint, networkFeeMinor: bigint): bigint {
  const max = balanceMinor - networkFeeMinor;
  return max > 0n ? max : 0n;
}
