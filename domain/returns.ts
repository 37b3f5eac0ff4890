/**
 * SEPA returns (R-transactions): a payout of Muntly's that the payee's bank sent back, with an
 * ISO 20022 ExternalReturnReason code. The codes customers are told about in plain words (the
 * locales hold one text per code here, `returnReasons.<code>`, and `returnReasons.other` for the
 * rest); any other code is shown with the generic text.
 */
export const RETURN_REASON_CODES = [
  'AC01',
  'AC04',
  'AC06',
  'AG01',
  'AM05',
  'BE04',
  'MD07',
  'MS02',
  'MS03',
  'RC01',
  'RR01',
  'RR02',
  'RR03',
  'RR04',
  'FF01',
  'CNOR',
  'DNOR',
] as const;
export type ReturnReasonCode = (typeof RETURN_REASON_CODES)[number];

/** The key of a reason's text: its code when the locales have one, else `other`. */
export function returnReasonKey(code: string | null | undefined): ReturnReasonCode | 'other' {
  const upper = (code ?? '').trim().toUpperCase();
  return (RETURN_REASON_CODES as readonly string[]).includes(upper) ? (upper as ReturnReasonCode) : 'other';
}

/**
 * How much less than the payout a return may bring and still be booked against it: the payee's
 * bank may keep a charge (the EPC rulebook allows it to deduct its fee from a return). Muntly
 * bears that charge, so the customer is owed the whole payout again. A larger shortfall, or a
 * return for more than the payout, waits in the unmatched queue for an operator.
 */
export const RETURN_CHARGE_TOLERANCE_EUR_MINOR = 1500n;

/**
 * Where a returned payout stands for the customer: waiting for another IBAN; a new payout to it
 * on its way (possibly waiting for four eyes); paid to the new IBAN.
 */
export const PAYOUT_RETURN_STATES = ['awaiting_iban', 'new_payout_pending', 'new_payout_completed'] as const;
export type PayoutReturnState = (typeof PAYOUT_RETURN_STATES)[number];

/** The longest holder name a pain.001 carries (Cdtr/Nm, Max140Text; banks show 70). */
export const HOLDER_NAME_MAX = 70;
