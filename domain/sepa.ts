import { electronicFormatIBAN, isValidIBAN } from 'ibantools';

/**
 * The countries whose IBANs SEPA credit transfers reach: the IBAN country codes of the SEPA
 * schemes' geographical scope. Source: European Payments Council, "EPC List of SEPA Scheme
 * Countries" (EPC409-09), with the enlargements the EPC announced since: Albania and Montenegro
 * (November 2024), Moldova and North Macedonia (March 2025), Serbia (May 2025) — 41 countries.
 *
 * Territories without an IBAN code of their own are reached through their country's: Guernsey,
 * Jersey and the Isle of Man use GB; the French overseas departments and Saint-Pierre-et-Miquelon
 * use FR; the Åland Islands use FI; Gibraltar has its own, GI.
 *
 * Muntly pays sell proceeds, refunds and the bank verification's 0.01 EUR by SEPA transfer only,
 * so an IBAN outside this list cannot receive them and is refused where it is entered.
 */
// prettier-ignore
export const SEPA_IBAN_COUNTRIES = [
  // The 27 member states of the European Union.
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK',
  // The rest of the European Economic Area.
  'IS', 'LI', 'NO',
  // Switzerland, the United Kingdom (and Gibraltar), Monaco, San Marino, Andorra, the Vatican.
  'CH', 'GB', 'GI', 'MC', 'SM', 'AD', 'VA',
  // Enlargement since 2024.
  'AL', 'ME', 'MD', 'MK', 'RS',
] as const;

export type IbanCheck = { ok: true; iban: string } | { ok: false; code: 'invalid_iban' | 'iban_outside_sepa' };

/**
 * An IBAN as people write it (spaces, lower case) checked for a SEPA payout: its electronic form
 * (NL91ABNA0417164300), or why it cannot be used — its checksum or format, or its country.
 */
export function sepaIban(input: string): IbanCheck {
  // Copied from a banking app or typed on a phone: no-break spaces, zero-width marks, full-width
  // letters and digits are the same IBAN (NFKC folds them; \s covers the Unicode spaces).
  const iban = electronicFormatIBAN(input.normalize('NFKC').replace(/[\s\u200b\u2060]+/g, '')) ?? '';
  if (!isValidIBAN(iban)) return { ok: false, code: 'invalid_iban' };
  if (!(SEPA_IBAN_COUNTRIES as readonly string[]).includes(iban.slice(0, 2)))
    return { ok: false, code: 'iban_outside_sepa' };
  return { ok: true, iban };
}

/**
 * The SEPA countries outside the European Economic Area, by the IBAN's country code. A transfer to
 * them leaves the EEA, so the transfer-of-funds regulation (Regulation (EU) 2023/1113, art. 4(1)
 * and 5) makes the payer's address travel with it, and the EPC accepts that address only
 * structured or partly structured (town and country at least) from 22 November 2026 (SEPA Credit
 * Transfer rulebook 2025, change request on structured addresses; EPC implementation guidelines
 * EPC132-08 2023). Source of the list: the EPC List of SEPA Scheme Countries (EPC409-09), its
 * non-EEA part: Switzerland, the United Kingdom, Gibraltar, Monaco, San Marino, Andorra, the
 * Vatican, and the enlargement since 2024 (Albania, Montenegro, Moldova, North Macedonia, Serbia).
 * Jersey, Guernsey and the Isle of Man have no IBAN code of their own: their IBANs start with GB
 * and are caught by it (JE, GG and IM stay listed, should a bank ever issue them).
 */
// prettier-ignore
export const SEPA_NON_EEA_COUNTRIES = ['CH', 'GB', 'GI', 'MC', 'SM', 'AD', 'VA', 'AL', 'ME', 'MD', 'MK', 'RS', 'JE', 'GG', 'IM'] as const;

/** Whether a transfer to this IBAN (electronic form) leaves the EEA: the payer's structured address must go with it. */
export const leavesEea = (iban: string) =>
  (SEPA_NON_EEA_COUNTRIES as readonly string[]).includes(iban.slice(0, 2).toUpperCase());

/**
 * Whether two IBANs, as people write them, are the same account: compared in their electronic
 * form (spaces, dashes, lower case, full-width letters do not make another account). Used to
 * refuse Muntly's own account wherever a customer's IBAN is entered.
 */
export function sameIban(a: string, b: string): boolean {
  const left = sepaIban(a);
  const right = sepaIban(b);
  return left.ok && right.ok && left.iban === right.iban;
}

/**
 * The payouts file's pain.001 versions (BANK_PAIN_VERSION, server/src/modules/bank/pain.ts):
 * .001.09 by default, .001.03 for a bank that still asks for it.
 */
export const PAIN_VERSIONS = ['09', '03'] as const;
export type PainVersion = (typeof PAIN_VERSIONS)[number];

/** A structured postal address (ISO 20022 PostalAddress24; the EPC requires the town and the country). */
export type PostalAddress = {
  street?: string;
  building?: string;
  postcode?: string;
  town: string;
  /** ISO 3166 alpha-2. */
  country: string;
};
