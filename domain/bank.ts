/**
 * Payments that arrive on Muntly's bank account, as read from the bank's statement (camt.053):
 *
 * matched  — its reason named a buy order or a deposit, and the intake took it at import;
 * open     — nothing matched: it waits in the unmatched queue for an operator;
 * assigned — an operator gave it to an order or a deposit (the same intake took it then);
 * refunded — an operator sent it back to the payer's IBAN (a SEPA payout);
 * returned — a payout of Muntly's that the payee's bank sent back (its return reason kept), booked
 *            against that payout at import (server/src/modules/bank/returns.ts).
 * A return that could not be booked (no payout named, another amount) waits `open` with its
 * return reason: it can never be refunded to the IBAN it came from.
 */
export const BANK_PAYMENT_STATUSES = ['matched', 'open', 'assigned', 'refunded', 'returned'] as const;
export type BankPaymentStatus = (typeof BANK_PAYMENT_STATUSES)[number];
