import { transliterate } from 'transliteration';

/**
 * The payee's name on a SEPA transfer. Since October 2025 the payee's bank checks it against the
 * account holder (Verification of Payee, Regulation (EU) 2024/886): a missing name ("NOTPROVIDED")
 * or one in another script answers "no match". SEPA files carry only the EPC's basic Latin set
 * (a–z, A–Z, 0–9, / - ? : ( ) . , ' + and space), so a Cyrillic, Greek or Chinese name is written
 * in its Latin transliteration (the `transliteration` library: "Юлия Коваленко" → "Yuliya
 * Kovalenko", "张伟" → "Zhang Wei"), which the customer sees and can correct before placing the
 * order, since only they know how their bank spells it.
 */

/** At least a first letter and a last (SEPA allows 70 characters for a name). */
export const PAYEE_NAME_MIN = 2;
export const PAYEE_NAME_MAX = 70;

/**
 * Any text in SEPA's basic character set: other scripts transliterated, accents dropped (ü → u,
 * ß → ss), anything else a space, spaces collapsed. Whole: the caller cuts it to its field.
 */
export function sepaLatin(value: string): string {
  return transliterate(value.normalize('NFC'))
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a name has letters of another script than Latin: the form then shows its Latin spelling to check. */
export const needsLatinSpelling = (name: string): boolean => /(?!\p{Script=Latin})\p{L}/u.test(name);

export type PayeeNameCheck = { ok: true; name: string } | { ok: false; code: 'required' | 'invalid_beneficiary' };

/** The account holder's name as it goes on the transfer, or why it cannot: empty, or not 2–70 Latin characters with a letter. */
export function payeeName(input: string): PayeeNameCheck {
  if (!input.trim()) return { ok: false, code: 'required' };
  const name = sepaLatin(input);
  if (name.length < PAYEE_NAME_MIN || name.length > PAYEE_NAME_MAX || !/[A-Za-z]/.test(name))
    return { ok: false, code: 'invalid_beneficiary' };
  return { ok: true, name };
}
