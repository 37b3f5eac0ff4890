import { networkFeeMinor } from './fees';

/**
 * A wallet send's status, the one source of its type, the API's zod enum and the database
 * column with its check constraint: awaiting_code (the emailed code confirms it) -> processing
 * (booked, being paid out; an internal send skips it) -> completed, or failed. A send whose payout
 * needs four eyes (domain/payouts.ts) is awaiting_approval between the code and processing, and
 * failed when an operator rejects it.
 */
export const SEND_STATUSES = ['awaiting_code', 'awaiting_approval', 'processing', 'completed', 'failed'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];

/** The state machine above: where each status may go next. */
export const SEND_TRANSITIONS: Record<SendStatus, readonly SendStatus[]> = {
  awaiting_code: ['awaiting_approval', 'processing', 'completed', 'failed'],
  awaiting_approval: ['processing', 'failed'],
  processing: ['completed', 'failed'],
  completed: [],
  failed: [],
};

/** Before its code is accepted a send has moved nothing; a failed one gave everything back. */
const NOT_CONFIRMED: SendStatus = 'awaiting_code';
const RETURNED: SendStatus = 'failed';

/**
 * The statuses in which a confirmed send counts as value that left (weekly volume, the second
 * factor's 24 hours): every status a confirmed send can reach, whatever happens to it next —
 * waiting for approval, for the signer, being paid, paid — except failed, whose money came back.
 * Derived from the state machine, so a status added to it is counted unless it is the one exception.
 */
export const SEND_STATUSES_MOVING_VALUE: readonly SendStatus[] = [
  ...new Set(
    SEND_TRANSITIONS[NOT_CONFIRMED].flatMap(function reach(status: SendStatus): SendStatus[] {
      return [status, ...SEND_TRANSITIONS[status].flatMap(reach)];
    }),
  ),
].filter((status) => status !== RETURNED);

/**
 * The network fee of a send to an external address, in the currency's minor units (none to
 * another Muntly wallet: the API decides that from the address).
 */
export const externalNetworkFeeMinor = (currency: string): bigint => networkFeeMinor(currency) ?? 0n;

/** The most a send can be: the balance less the network fee, never below zero. */
export function maxSendableMinor(balanceMinor: bigint, networkFeeMinor: bigint): bigint {
  const max = balanceMinor - networkFeeMinor;
  return max > 0n ? max : 0n;
}
