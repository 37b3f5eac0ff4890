/**
 * Every error the API answers with (DESIGN.md section 5), written once: its stable code, its
 * HTTP status and the API's own English message (for clients that show it directly; the site
 * shows the localized text for the code from locales/<lng>/errors.json).
 *
 * Invariants: a code has exactly one status, chosen here and nowhere else — services, the ledger
 * and the workers throw a DomainError with a code and never think about HTTP; the API's error
 * handler (server/src/errors.ts) looks the status up. The only answers whose status is not in
 * this map are the transport's own refusals (too many requests, a body too large, a request the
 * framework cannot parse), which keep the status the framework gives them.
 */
import { FEES } from './fees';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ID_VERIFICATION_WEEKLY_EUR_MINOR, MOBILE_VERIFICATION_WEEKLY_EUR_MINOR, ORDER_LIMIT_EUR_MINOR, UNUSED_ADDRESSES_PER_CURRENCY } from './limits';

/** A limit in the English messages, e.g. "30,000.00 EUR": rendered from domain/limits.ts, never written by hand. */
const inEur = (minor: bigint) => `${(Number(minor) / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} EUR`;

type ErrorSpec = { readonly status: 400 | 401 | 403 | 404 | 408 | 409 | 413 | 429 | 431 | 500 | 503; readonly message: string };

export const ERRORS = {
  // Spec catalogue (section 8).
  invalid_address: { status: 400, message: 'Invalid address.' },
  send_to_own_address: { status: 400, message: 'This is one of your own addresses: a send to it would change nothing.' },
  unknown_destination_tag: { status: 400, message: "This is Muntly's XRP address, and no Muntly wallet has this destination tag." },
  muntly_house_address: { status: 400, message: 'This address belongs to Muntly. To receive into your Muntly wallet, choose to send to your wallet.' },
  invalid_email: { status: 400, message: 'Invalid email address.' },
  insufficient_balance: { status: 409, message: 'Insufficient balance.' },
  first_order_limit: { status: 409, message: `Order rejected. The first order of each new customer is limited to ${inEur(FIRST_ORDER_LIMIT_EUR_MINOR)}.` },
  order_limit: { status: 409, message: `Order rejected. An order can be at most ${inEur(ORDER_LIMIT_EUR_MINOR)}.` },
  network_fee_exceeds_amount: { status: 409, message: 'Order rejected. The network fees are higher than the order amount.' },
  amount_below_minimum_fee: { status: 409, message: `Order rejected: the amount must be more than the minimum fee of ${inEur(FEES.buy.minimumEurMinor)}.` },
  /** A transient failure (no rate, database not ready); a rate limit answers it with 429. */
  try_again_soon: { status: 503, message: 'Try again soon!' },
  login_required: { status: 401, message: 'Please log in to use Send to my wallet / Use my wallet.' },
  bank_verification_required: { status: 403, message: 'You must verify your bank account to use this feature.' },
  business_verification_required: { status: 403, message: 'Paying from a business bank account needs a verified business: see your identity page.' },
  currency_partially_supported: { status: 409, message: 'This currency is only partially supported.' },
  own_wallet_only: { status: 409, message: 'This currency is only available with the own-wallet option.' },
  verification_not_enabled: { status: 403, message: 'Contact us to enable this verification.' },
  buy_sell_disabled: { status: 403, message: 'Buying and selling have been disabled since June 2022.' },
  // Requests.
  bad_request: { status: 400, message: 'The request could not be understood.' },
  validation_failed: { status: 400, message: 'A field is missing or invalid.' },
  not_found: { status: 404, message: 'Not found.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  // The HTTP server's own refusals, before any route runs (server/src/plugins/edge.ts).
  headers_too_large: { status: 431, message: 'The request headers are too large.' },
  request_timeout: { status: 408, message: 'The request took too long to arrive.' },
  internal_error: { status: 500, message: 'Something went wrong on our side. Nothing was changed; please try again.' },
  // Authentication (401) and authorization (403).
  token_missing: { status: 401, message: 'Log in to use this feature: the request carries no access token.' },
  token_malformed: { status: 401, message: 'The access token is not a valid JWT.' },
  token_expired: { status: 401, message: 'The access token has expired. Log in again.' },
  token_not_yet_valid: { status: 401, message: 'The access token is not valid yet.' },
  token_wrong_issuer: { status: 401, message: 'The access token was issued by an unknown identity provider.' },
  token_wrong_audience: { status: 401, message: 'The access token is not meant for this API.' },
  token_unsupported_algorithm: { status: 401, message: 'The access token must be signed with RS256.' },
  token_unknown_key: { status: 401, message: 'The access token was signed with an unknown key.' },
  token_invalid_signature: { status: 401, message: 'The access token signature is invalid.' },
  token_invalid_claims: { status: 401, message: 'The access token lacks a subject or other required claims.' },
  insufficient_scope: { status: 403, message: 'The access token does not grant this permission.' },
  // Field validation (identity step 1, support form and other forms); `field` names the field.
  required: { status: 400, message: 'This field is required.' },
  too_long: { status: 400, message: 'This field is too long.' },
  too_short: { status: 400, message: 'This field is too short.' },
  invalid_reference: { status: 400, message: 'An order reference has 16 letters: ABCD-EFGH-IJKL-MNOP.' },
  invalid_iban: { status: 400, message: 'Invalid IBAN.' },
  iban_outside_sepa: { status: 400, message: 'Muntly pays out by SEPA transfer only, and this IBAN is from a country outside SEPA.' },
  invalid_mobile: { status: 400, message: 'Invalid mobile number: write it with the country code, e.g. +31 6 12345678.' },
  invalid_date: { status: 400, message: 'Invalid date: use YYYY-MM-DD.' },
  too_young: { status: 400, message: 'You must be at least 18 years old.' },
  invalid_country: { status: 400, message: 'Invalid country: use the two-letter code, e.g. NL.' },
  invalid_amount: { status: 400, message: 'Invalid amount: a positive number with at most the currency’s decimals.' },
  // Identity verification and one-time codes (identity step 2, wallet sends).
  verification_required: { status: 403, message: 'This needs a further identity verification first: see your identity page.' },
  mobile_verification_required: {
    status: 403,
    message: `Sending or exchanging more than ${inEur(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR)} within 7 days needs a verified mobile number: see your identity page.`,
  },
  id_verification_required: { status: 403, message: `Sending or exchanging more than ${inEur(ID_VERIFICATION_WEEKLY_EUR_MINOR)} within 7 days needs a verified ID document: see your identity page.` },
  weekly_limit_login_required: {
    status: 403,
    message: `Exchanging more than ${inEur(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR)} within 7 days needs a verified account: log in and verify your mobile number (and your ID above ${inEur(ID_VERIFICATION_WEEKLY_EUR_MINOR)}).`,
  },
  already_verified: { status: 409, message: 'This verification is already complete.' },
  /** Step 1 again too soon, or too often in a day: each code costs an SMS, a letter or a transfer. */
  code_requested_too_soon: { status: 429, message: 'A new code can be asked for later: see retryAfter.' },
  too_many_unused_addresses: { status: 409, message: `You already have ${UNUSED_ADDRESSES_PER_CURRENCY} addresses in this currency that nothing has arrived at: use one of them.` },
  no_code_pending: { status: 409, message: 'No code has been sent for this verification: submit your data first.' },
  invalid_code: { status: 400, message: 'Wrong code.' },
  invalid_code_format: { status: 400, message: 'A code has 16 letters: ABCD-EFGH-IJKL-MNOP.' },
  code_expired: { status: 400, message: 'This code has expired or was replaced: request a new one.' },
  code_attempts_exceeded: { status: 429, message: 'Too many wrong codes: this code no longer works. Request a new one.' },
  // Wallet, ledger and orders.
  send_not_pending: { status: 409, message: 'This send is no longer waiting for its code.' },
  idempotency_conflict: { status: 409, message: 'This idempotency key was already used for a different request.' },
  order_not_open: { status: 409, message: 'This order has already received its payment.' },
  // Operations.
  not_available_in_production: { status: 409, message: 'This command is only available with the local identity provider.' },
  unknown_user: { status: 404, message: 'No user with this email address.' },
  // Payouts reported by their executor (the signer, the bank).
  payout_not_submitted: { status: 409, message: 'This payout is not waiting for an executor’s report.' },
  payout_already_final: { status: 409, message: 'This payout was already reported with a different result.' },
  // Faucet.
  registrations_closed: { status: 409, message: 'Registrations for this round are not open: wait for the next round.' },
  already_entered: { status: 409, message: 'You are already playing in this round.' },
  not_your_address: { status: 400, message: 'Enter one of your own Muntly reception addresses in BTC, ETH, XRP, BCH, LTC or DOGE.' },
  faucet_game_over: { status: 409, message: 'The faucet is not running at the moment (GAME OVER).' },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export const isErrorCode = (value: string): value is ErrorCode => Object.prototype.hasOwnProperty.call(ERRORS, value);

/** The HTTP status the API answers a code with. */
export const statusOf = (code: ErrorCode): ErrorSpec['status'] => ERRORS[code].status;

/**
 * What services, the ledger, workers and routes throw: a code, optionally the field it is about
 * and a more precise English message (by default the map's). Never an HTTP status.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: ErrorCode,
    readonly field?: string,
    message?: string,
    /** Seconds until the same request may succeed (a limit that lifts with time): the body's retryAfter and the Retry-After header. */
    readonly retryAfter?: number,
  ) {
    super(message ?? ERRORS[code].message);
  }
}

/** The code a validation issue's message names, when it is one of `codes` (schemas give codes as messages). */
export const codeIn = <C extends ErrorCode>(message: string, codes: readonly C[]): C | undefined => ((codes as readonly string[]).includes(message) ? (message as C) : undefined);

/** An unlisted currency code, refused alike wherever a currency is named. */
export const unknownCurrency = (field: string) => new DomainError('validation_failed', field, 'Unknown currency.');

/** Whole seconds to wait, at least one, from milliseconds (a DomainError's retryAfter). */
export const secondsToWait = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** The body of every error response. */
export type ErrorBody = { error: { code: ErrorCode; message: string; field?: string; retryAfter?: number } };
