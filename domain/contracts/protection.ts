import { z } from 'zod';
import { PHRASE_MAX_LENGTH, SECURITY_EVENT_KINDS } from '../protection';

/**
 * Account protection (issue 19): the address book (/api/wallet/address-book), the security
 * overview and settings (/api/wallet/security), the freeze and the operator's unfreeze.
 */
export const addressBookEntrySchema = z.object({
  id: z.string(),
  currency: z.string(),
  address: z.string().describe('Canonical form (XRP: address:tag); any spelling of it is this entry'),
  label: z.string().nullable(),
  ownWallet: z.boolean().describe("The user's own wallet, or someone else's (EU transfer-of-funds rule)"),
  internal: z.boolean().describe('Another Muntly user’s address: usable at once'),
  createdAt: z.string(),
  usableFrom: z.string().describe('Sends may go to it from then on (the hold)'),
  onHold: z.boolean(),
});
export type AddressBookEntry = z.infer<typeof addressBookEntrySchema>;

export const addressBookResponse = z.object({ entries: z.array(addressBookEntrySchema) });
export type AddressBookResponse = z.infer<typeof addressBookResponse>;

export const addEntryBody = z.object({
  currency: z.string().max(10),
  address: z.string().max(200),
  label: z.string().trim().max(100, 'too_long').optional(),
  ownWallet: z.boolean().describe("true: the user's own wallet; false: someone else's"),
});
export type AddEntryBody = z.input<typeof addEntryBody>;

export const securityEventSchema = z.object({
  kind: z.enum(SECURITY_EVENT_KINDS),
  at: z.string(),
  client: z.string().describe('Where it came from: the browser and system, "email link", "operator"'),
  detail: z.record(z.string(), z.string()).nullable(),
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;

export const securityOverviewSchema = z.object({
  allowListOnly: z.boolean(),
  allowListOffFrom: z.string().nullable().describe('When allow-list mode may be switched off (null while off)'),
  phrase: z.object({ masked: z.string().describe('First and last character only'), setAt: z.string() }).nullable(),
  frozen: z.boolean(),
  frozenAt: z.string().nullable(),
  frozenByOperator: z.boolean().describe('Frozen by Muntly’s team: only they unfreeze it (support)'),
  unfreezesAt: z.string().nullable().describe('A confirmed unfreeze takes effect then'),
  unfreezeCodeSent: z.boolean(),
  sendsPausedUntil: z.string().nullable().describe('A cool-down after a change of phrase, mode or email address'),
  holdHours: z.number(),
  secondFactorAboveEur: z.string().describe('Sends worth more need a login with a second factor'),
  addressBook: z.array(addressBookEntrySchema),
  events: z.array(securityEventSchema),
});
export type SecurityOverview = z.infer<typeof securityOverviewSchema>;

/** PATCH /api/wallet/security: either or both. The phrase's rules are domain/protection.ts checkPhrase (null removes it). */
export const securitySettingsBody = z
  .object({
    allowListOnly: z.boolean().optional(),
    phrase: z
      .string()
      .max(PHRASE_MAX_LENGTH * 4)
      .nullable()
      .optional(),
  })
  .refine((body) => body.allowListOnly !== undefined || body.phrase !== undefined, 'required');
export type SecuritySettingsBody = z.input<typeof securitySettingsBody>;

export const unfreezeConfirmBody = z.object({ code: z.string().max(64) });

/** The form a security email's link page posts (the token from the link), and the link's own query. */
export const securityLinkForm = z.object({ t: z.string().max(200) });
export const securityLinkQuery = z.object({ t: z.string().max(200).default('') });
/** The outcome pages after a link's form: in the email's language; after a cancel, a fresh freeze token for its button. */
export const linkOutcomeQuery = z.object({ lang: z.string().max(5).optional(), t: z.string().max(200).optional() });

/**
 * A login the identity provider reports (POST /api/security/sign-ins; in production an Auth0
 * post-login Action, docs/security.md "Account protection"), authenticated by SIGN_IN_REPORT_SECRET.
 */
export const signInReportBody = z.object({
  subject: z
    .string()
    .min(1)
    .max(255)
    .describe("The user's subject: the access tokens' sub (Auth0: event.user.user_id)"),
  deviceKey: z
    .string()
    .min(16)
    .max(255)
    .describe(
      'What stays the same for one browser and differs between browsers (Auth0: event.session.id); only its hash is kept',
    ),
  userAgent: z
    .string()
    .max(1000)
    .optional()
    .describe('The browser and system shown to the user are read from it (Auth0: event.request.user_agent)'),
  language: z
    .string()
    .max(10)
    .optional()
    .describe('The login page’s language (Auth0: event.request.language), for the email if the account has none yet'),
});
export type SignInReport = z.infer<typeof signInReportBody>;
export const signInReportResponse = z.object({
  device: z
    .enum(['first_device', 'known_device', 'new_device'])
    .describe(
      'The account’s first device (recorded silently), one it used before, or a new one (an event and an email)',
    ),
});
export type SignInReportResult = z.infer<typeof signInReportResponse>;

/**
 * An operator's freeze or unfreeze of an account's sends (POST /api/ops/accounts/:accountKey/freeze
 * | unfreeze; `npm run ops -- freeze | unfreeze`): the reason goes into the audit trail with the
 * state before and after, never to the user.
 */
export const opsAccountParams = z.object({
  accountKey: z.string().max(32).describe('The account key (npm run ops -- users)'),
});
export const opsFreezeBody = z.object({
  reason: z.string().trim().min(1).max(500).describe('Why: kept in the audit trail (never shown to the user)'),
});
export type OpsFreezeBody = z.input<typeof opsFreezeBody>;
export const opsFreezeResponse = z.object({
  accountKey: z.string(),
  frozen: z.boolean(),
  frozenByOperator: z.boolean().describe('Frozen by an operator: only an operator unfreezes it'),
  frozenAt: z.string().nullable(),
});
export type OpsFreezeResponse = z.infer<typeof opsFreezeResponse>;
