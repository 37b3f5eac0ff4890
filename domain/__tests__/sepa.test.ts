/**
 * @jest-environment node
 */
import { countrySpecs } from 'ibantools';
import { SEPA_IBAN_COUNTRIES, sepaIban } from '../sepa';

describe('SEPA payout IBANs', () => {
  it.each([
    ['de89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['GB29 NWBK 6016 1331 9268 19', 'GB29NWBK60161331926819'],
    ['CH93 0076 2011 6238 5295 7', 'CH9300762011623852957'],
    ['ME25 5050 0001 2345 6789 51', 'ME25505000012345678951'],
  ])('%s is a SEPA IBAN, kept as %s', (input, electronic) => {
    expect(sepaIban(input)).toEqual({ ok: true, iban: electronic });
  });

  it.each([
    ['TR33 0006 1005 1978 6457 8413 26'], // Türkiye
    ['UA21 3223 1300 0002 6007 2335 6600 1'], // Ukraine
    ['SA03 8000 0000 6080 1016 7519'], // Saudi Arabia
    ['AE07 0331 2345 6789 0123 456'], // United Arab Emirates
  ])('%s is a valid IBAN outside SEPA, refused for that reason', (input) => {
    expect(sepaIban(input)).toEqual({ ok: false, code: 'iban_outside_sepa' });
  });

  it('refuses a wrong checksum as invalid, whatever the country', () => {
    expect(sepaIban('DE89 3704 0044 0532 0130 01')).toEqual({ ok: false, code: 'invalid_iban' });
    expect(sepaIban('TR33 0006 1005 1978 6457 8413 27')).toEqual({ ok: false, code: 'invalid_iban' });
  });

  it('lists only countries that have IBANs (checked against the IBAN registry in ibantools)', () => {
    for (const country of SEPA_IBAN_COUNTRIES) expect(countrySpecs[country]?.chars).toBeGreaterThan(0);
    expect(new Set(SEPA_IBAN_COUNTRIES).size).toBe(SEPA_IBAN_COUNTRIES.length);
  });
});
