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
  const iban = electronicFormatIBAN(input.trim()) ?? '';
  if (!isValidIBAN(iban)) return { ok: false, code: 'invalid_iban' };
  if (!(SEPA_IBAN_COUNTRIES as readonly string[]).includes(iban.slice(0, 2))) return { ok: false, code: 'iban_outside_sepa' };
  return { ok: true, iban };
}
