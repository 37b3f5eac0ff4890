/**
 * Account protection (issue 19): the address book with its hold, the allow-list mode, the freeze,
 * the anti-phishing phrase and the security events a user sees. Shared by the security page and
 * the API, so both judge a phrase alike.
 */

/** Limits of the anti-phishing phrase, in characters (code points) after normalisation. */
export const PHRASE_MIN_LENGTH = 3;
export const PHRASE_MAX_LENGTH = 40;

/**
 * Characters a phrase may not hold: control and format characters (a bidi override or a
 * zero-width space makes two different phrases look the same in a mail), private-use and
 * unassigned code points, line and paragraph separators.
 */
const FORBIDDEN = /[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}]/u;

export type PhraseCheck =
  { ok: true; phrase: string } | { ok: false; code: 'too_short' | 'too_long' | 'invalid_characters' };

/**
 * The phrase as it is stored and shown in every email: Unicode NFC (one spelling of "é"), without
 * surrounding spaces, inner runs of spaces made one.
 */
export function checkPhrase(input: string): PhraseCheck {
  const trimmed = input.normalize('NFC').trim();
  if (FORBIDDEN.test(trimmed)) return { ok: false, code: 'invalid_characters' };
  const phrase = trimmed.replace(/\s+/gu, ' ');
  const length = [...phrase].length;
  if (length < PHRASE_MIN_LENGTH) return { ok: false, code: 'too_short' };
  if (length > PHRASE_MAX_LENGTH) return { ok: false, code: 'too_long' };
  return { ok: true, phrase };
}

/**
 * How the site shows a phrase once it is set: its first and last character around a fixed row of
 * dots, so that neither the phrase nor its length can be read off a screen or a stolen session.
 */
export function maskPhrase(phrase: string): string {
  const characters = [...phrase];
  return `${characters[0] ?? ''}•••${characters.at(-1) ?? ''}`;
}

/**
 * What a user sees in their security events. One list for the type, the API's enum and the
 * database's check constraint.
 */
export const SECURITY_EVENT_KINDS = [
  'address_added',
  'address_removed',
  'address_cancelled_by_link',
  'allow_list_on',
  'allow_list_off',
  'phrase_set',
  'phrase_changed',
  'phrase_removed',
  'email_changed',
  'frozen',
  'frozen_by_link',
  'frozen_by_operator',
  'unfreeze_requested',
  'unfreeze_confirmed',
  'unfrozen_by_operator',
  'signed_in_new_device',
  'second_factor_added',
  'second_factor_removed',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** The purposes of a signed link in a security email: freeze the account's sends, cancel a new address-book entry. */
export const SECURITY_LINK_PURPOSES = ['freeze', 'cancel_address'] as const;
export type SecurityLinkPurpose = (typeof SECURITY_LINK_PURPOSES)[number];

/**
 * How long a new address-book entry waits by default (the server's ADDRESS_HOLD_HOURS may set
 * another): the pages that explain it without asking the API (the fees page) name this one.
 */
export const DEFAULT_ADDRESS_HOLD_HOURS = 24;

/** At most this many live entries in one address book. */
export const ADDRESS_BOOK_MAX_ENTRIES = 200;

/** The amr values (RFC 8176) that say a login used a second factor. */
export const SECOND_FACTOR_AMR = ['otp', 'mfa', 'hwk', 'swk', 'sms'] as const;
export const hasSecondFactor = (amr: readonly string[] | undefined): boolean =>
  (amr ?? []).some((value) => (SECOND_FACTOR_AMR as readonly string[]).includes(value));
