/**
 * The EPC069-12 ("GiroCode") payload of a SEPA credit transfer, which banking apps read from a QR
 * code: version 002, UTF-8, SCT, BIC, beneficiary, IBAN, EUR amount, and the remittance text.
 */
export function epcPayload(input: {
  bic: string;
  beneficiary: string;
  iban: string;
  amountEur: string;
  reason: string;
}): string {
  return [
    'BCD',
    '002',
    '1',
    'SCT',
    input.bic,
    input.beneficiary.slice(0, 70),
    input.iban.replace(/\s+/g, ''),
    // No amount (a deposit of the payer's choosing): the field stays empty, the payer's app asks.
    input.amountEur ? `EUR${input.amountEur}` : '',
    '', // purpose
    '', // structured creditor reference (we use the unstructured text)
    input.reason.slice(0, 140),
    // The optional 12th element (beneficiary to originator information) is left out, and with it
    // its separator: EPC069-12 allows no line feed after the last element.
  ].join('\n');
}
