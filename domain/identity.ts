import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { z } from 'zod';
import { formatIban } from './format';
import { sepaIban } from './sepa';
import type { ErrorCode } from './errors';
import type { VerificationKind } from './verification';

/**
 * Step 1 of each verification kind: the data the user enters, validated field by field, the same
 * in the browser (forms) and in the API. Error messages are codes; the site translates them.
 */
const text = (max: number) => z.string().trim().min(1, 'required').max(max, 'too_long');
const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'invalid_country');

/** A mobile number in international form, normalized to E.164 (+31612345678). */
export const mobileNumber = z
  .string()
  .trim()
  .min(1, 'required')
  .transform((value, ctx) => {
    const phone = parsePhoneNumberFromString(value);
    // The mobile metadata accepts only numbers that can receive an SMS.
    if (!phone || !phone.isValid()) {
      ctx.addIssue({ code: 'custom', message: 'invalid_mobile' });
      return z.NEVER;
    }
    return phone.number;
  });

/** An IBAN as people write it (spaces, lower case) -> electronic format (NL91ABNA0417164300), in SEPA. */
export const iban = z
  .string()
  .trim()
  .min(1, 'required')
  .transform((value, ctx) => {
    // The verification's 0.01 EUR goes out by SEPA transfer, like every payout.
    const checked = sepaIban(value);
    if (!checked.ok) {
      ctx.addIssue({ code: 'custom', message: checked.code });
      return z.NEVER;
    }
    return checked.iban;
  });

/** An IBAN grouped by four for reading, as every page and email writes it (domain/format.ts). */
export const displayIban = formatIban;

const birthdate = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_date')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
  }, 'invalid_date')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    const adult = new Date();
    adult.setUTCFullYear(adult.getUTCFullYear() - 18);
    return date <= adult && date.getUTCFullYear() >= 1900;
  }, 'too_young');

export const SALUTATIONS = ['mr', 'ms', 'mx'] as const;

export const personSchema = z.object({
  salutation: z.enum(SALUTATIONS, 'required'),
  firstName: text(100),
  lastName: text(100),
  birthdate,
  nationality: countryCode,
  email: z.string().trim().toLowerCase().pipe(z.email('invalid_email').max(254, 'too_long')),
  mobile: mobileNumber,
  street: text(200),
  zip: text(20),
  city: text(100),
  state: z.string().trim().max(100, 'too_long').optional().default(''),
  country: countryCode,
});

export const bankSchema = z.object({ iban, beneficiary: text(140) });
export const businessSchema = z.object({
  businessName: text(200),
  businessNumber: text(50),
  businessCountry: countryCode,
});
export const mobileSchema = z.object({ mobile: mobileNumber });

export const STEP_ONE_SCHEMAS = {
  address: personSchema,
  id: personSchema,
  bank: bankSchema,
  business: businessSchema,
  mobile: mobileSchema,
} satisfies Record<VerificationKind, z.ZodType>;

/** The field error codes the step 1 schemas give (the API answers them with `field`). */
export const STEP_ONE_FIELD_ERRORS = [
  'required',
  'too_long',
  'invalid_iban',
  'iban_outside_sepa',
  'invalid_mobile',
  'invalid_date',
  'too_young',
  'invalid_country',
  'invalid_email',
] as const satisfies readonly ErrorCode[];

/** How step 2 reaches the user: a letter, a small bank transfer, SMS, email, or the user emails a copy of the document. */
export const STEP_TWO_CHANNELS = ['post', 'bank', 'sms', 'email', 'document'] as const;
export type StepTwoChannel = (typeof STEP_TWO_CHANNELS)[number];

/** The step 2 channel of each kind. */
export const STEP_TWO_CHANNEL = {
  address: 'post',
  bank: 'bank',
  mobile: 'sms',
  business: 'email',
  id: 'document',
} as const satisfies Record<VerificationKind, StepTwoChannel>;

// The codes' lives and the transfer's amount, which the identity page states too: in a module
// without this one's schemas and phone rules, so the page does not load them at first paint.
export { CODE_TTL_MINUTES, STEP_TWO_CODE_VALIDITY, VERIFICATION_TRANSFER_EUR, stepTwoCodeTtlMs } from './code-validity';
/** Verification codes: 5 wrong attempts kill them. */
export const CODE_MAX_ATTEMPTS = 5;
/**
 * Each code costs the operator an SMS, a letter or a bank transfer, and can reach someone else's
 * phone or door: a new one at most once a minute and five times a day, per account and kind, and
 * five times a day to one phone number, address or IBAN from all accounts together (people who
 * share a home may verify one after another, so no minute's wait there).
 */
export const CODE_RESEND_AFTER_MS = 60_000;
export const CODES_PER_DAY = 5;
export const CODE_DAY_MS = 86_400_000;

/**
 * When the next code may be sent, given when codes were sent in the last day (any order), or null
 * when it may be sent now. `resendAfterMs` 0: no wait between two codes, only the daily cap.
 */
export function nextCodeAllowedAt(
  sentAt: readonly number[],
  now: number,
  resendAfterMs = CODE_RESEND_AFTER_MS,
): number | null {
  const recent = sentAt.filter((t) => t > now - CODE_DAY_MS).sort((a, b) => a - b);
  const afterLast = recent.length ? recent[recent.length - 1]! + resendAfterMs : 0;
  const afterDay = recent.length >= CODES_PER_DAY ? recent[recent.length - CODES_PER_DAY]! + CODE_DAY_MS : 0;
  const next = Math.max(afterLast, afterDay);
  return next > now ? next : null;
}

/** AML: identity records are kept at least 5 years. */
export const RETENTION_YEARS = 5;

/** When a retention period of `years` starting at `from` ends: the same day and time, UTC. */
export function yearsAfter(from: Date, years: number): Date {
  const until = new Date(from);
  until.setUTCFullYear(until.getUTCFullYear() + years);
  return until;
}
