/**
 * Payments that arrive on Muntly's bank account, as read from the bank's statement (camt.053):
 *
 * matched  — its reason named a buy order or a deposit, and the intake took it at import;
 * open     — nothing matched: it waits in the unmatched queue for an operator;
 * assigned — an operator gave it to an order or a deposit (the same intake took it then);
 * refunded — an operator sent it back to the payer's IBAN (a SEPA payout).
 */
export const BANK_PAYMENT_STATUSES = ['matched', 'open', 'assigned', 'refunded'] as const;
export type BankPaymentStatus = (typeof BANK_PAYMENT_STATUSES)[number];
