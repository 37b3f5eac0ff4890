/**
 * Every error the API answers with (docs/decisions/0003), written once: its stable code and its
 * HTTP status. The words live in one place too, locales/<lng>/errors.json, whose keys are these
 * codes: the site shows the text in the page's language (src/app/error-text.ts) and the
 * API's English message is the English text (server/src/error-messages.ts), both with the same
 * numbers filled in (errorTextNumbers, domain/error-text-numbers.ts), so the API and the page cannot say different things.
 * The texts are not imported here.
 *
 * Invariants: a code has exactly one status, chosen here and nowhere else — services, the ledger
 * and the workers throw a DomainError with a code and never think about HTTP; the API's error
 * handler (server/src/errors.ts) looks the status up. The only answers whose status is not in
 * this map are the transport's own refusals (too many requests, a body too large, a request the
 * framework cannot parse), which keep the status the framework gives them.
 */
// What the site needs of errors, apart from the codes: in a module of its own, so that pages do
// not carry this map and DomainError (issue 36's first-load budget).
export { errorTextNumbers, waitPhrase } from './error-text-numbers';

type ErrorSpec = { readonly status: 400 | 401 | 403 | 404 | 408 | 409 | 413 | 422 | 429 | 431 | 500 | 503 };

export const ERRORS = {
  // Spec catalogue (section 8).
  invalid_address: { status: 400 },
  send_to_own_address: { status: 400 },
  unknown_destination_tag: { status: 400 },
  muntly_house_address: { status: 400 },
  invalid_email: { status: 400 },
  insufficient_balance: { status: 409 },
  first_order_limit: { status: 409 },
  order_limit: { status: 409 },
  network_fee_exceeds_amount: { status: 409 },
  amount_below_minimum_fee: { status: 409 },
  /** A transient failure (no rate, database not ready); a rate limit answers it with 429. */
  try_again_soon: { status: 503 },
  login_required: { status: 401 },
  bank_verification_required: { status: 403 },
  business_verification_required: { status: 403 },
  currency_partially_supported: { status: 409 },
  own_wallet_only: { status: 409 },
  verification_not_enabled: { status: 403 },
  buy_sell_disabled: { status: 403 },
  // Requests.
  bad_request: { status: 400 },
  validation_failed: { status: 400 },
  not_found: { status: 404 },
  payload_too_large: { status: 413 },
  // The HTTP server's own refusals, before any route runs (server/src/plugins/edge.ts).
  headers_too_large: { status: 431 },
  request_timeout: { status: 408 },
  internal_error: { status: 500 },
  // Authentication (401) and authorization (403).
  token_missing: { status: 401 },
  token_malformed: { status: 401 },
  token_expired: { status: 401 },
  token_not_yet_valid: { status: 401 },
  token_wrong_issuer: { status: 401 },
  token_wrong_audience: { status: 401 },
  token_unsupported_algorithm: { status: 401 },
  token_unknown_key: { status: 401 },
  token_invalid_signature: { status: 401 },
  token_invalid_claims: { status: 401 },
  insufficient_scope: { status: 403 },
  // Field validation (identity step 1, support form and other forms); `field` names the field.
  required: { status: 400 },
  too_long: { status: 400 },
  too_short: { status: 400 },
  invalid_reference: { status: 400 },
  invalid_iban: { status: 400 },
  iban_outside_sepa: { status: 400 },
  /** Muntly's own bank account (BANK_IBAN, in any spelling) given as a customer's IBAN. */
  muntly_iban: { status: 400 },
  /** A payee name that is not 2–70 Latin characters once transliterated (SEPA's character set). */
  invalid_beneficiary: { status: 400 },
  invalid_mobile: { status: 400 },
  invalid_date: { status: 400 },
  too_young: { status: 400 },
  invalid_country: { status: 400 },
  invalid_amount: { status: 400 },
  // Identity verification and one-time codes (identity step 2, wallet sends).
  verification_required: { status: 403 },
  mobile_verification_required: { status: 403 },
  id_verification_required: { status: 403 },
  weekly_limit_login_required: { status: 403 },
  already_verified: { status: 409 },
  /** An operator rejects details that are not waiting for a check (step 2). */
  verification_not_submitted: { status: 409 },
  /** Step 1 again too soon, or too often in a day: each code costs an SMS, a letter or a transfer. */
  code_requested_too_soon: { status: 429 },
  too_many_unused_addresses: { status: 409 },
  no_code_pending: { status: 409 },
  invalid_code: { status: 400 },
  invalid_code_format: { status: 400 },
  code_expired: { status: 400 },
  code_attempts_exceeded: { status: 429 },
  // Wallet, ledger and orders.
  send_not_pending: { status: 409 },
  idempotency_conflict: { status: 409 },
  order_not_open: { status: 409 },
  // Operations.
  not_available_in_production: { status: 409 },
  backup_not_embedded: { status: 409 },
  unknown_user: { status: 404 },
  // Payouts reported by their executor (the signer, the bank).
  payout_not_submitted: { status: 409 },
  payout_already_final: { status: 409 },
  // Bank files (camt.053 statements in, the unmatched queue).
  statement_invalid: { status: 400 },
  statement_wrong_account: { status: 400 },
  /** A statement whose bytes cannot be read with certainty: undeclared and not UTF-8, or labelled two ways. */
  statement_encoding: { status: 400 },
  bank_payment_resolved: { status: 409 },
  bank_payment_no_iban: { status: 409 },
  payment_reference_ambiguous: { status: 409 },
  // SEPA returns: a payout the payee's bank sent back (server/src/modules/bank/returns.ts).
  /** Refund of a return from the unmatched queue: it came from the payee's bank (their account is closed). */
  bank_payment_is_return: { status: 409 },
  /** Another IBAN for a returned payout that is not waiting for one (given already, or none returned). */
  payout_return_not_waiting: { status: 409 },
  /** The IBAN the payout was returned from. */
  iban_returned: { status: 400 },
  /** A returned payout's emailed link, past its two weeks (link_invalid and link_used as for security links). */
  return_link_expired: { status: 400 },
  /** An order's signed link (its confirmation email, the order page's address) past its lifetime. */
  order_link_expired: { status: 400 },
  // Four eyes on payouts: two different operators approve, neither the one who triggered it.
  payout_not_awaiting_approval: { status: 409 },
  approval_same_operator: { status: 403 },
  approval_own_payout: { status: 403 },
  /** An operator who is also the customer the payout pays (their account, or an order in their email). */
  approval_beneficiary: { status: 403 },
  /** An operator's review of an order that is not (or no longer) held for one. */
  order_not_held: { status: 409 },
  // Account protection (issue 19): the address book, the freeze, cool-downs, step-up for sends.
  address_not_in_book: { status: 403 },
  address_on_hold: { status: 409 },
  address_already_in_book: { status: 409 },
  address_book_full: { status: 409 },
  account_frozen: { status: 403 },
  not_frozen: { status: 409 },
  already_frozen: { status: 409 },
  frozen_by_operator: { status: 403 },
  sends_paused: { status: 409 },
  allow_list_on_hold: { status: 409 },
  login_required_recent: { status: 401 },
  second_factor_required: { status: 403 },
  invalid_characters: { status: 400 },
  link_invalid: { status: 400 },
  link_expired: { status: 400 },
  link_used: { status: 409 },
  /** POST /api/security/sign-ins (the identity provider's reports): no or the wrong SIGN_IN_REPORT_SECRET. */
  sign_in_report_secret_invalid: { status: 401 },
  // Faucet.
  registrations_closed: { status: 409 },
  already_entered: { status: 409 },
  not_your_address: { status: 400 },
  faucet_game_over: { status: 409 },
  // Proof of solvency (issue 32): a proof of control whose signature is not by the address's key, or not of the snapshot's message.
  invalid_signature: { status: 422 },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

export const isErrorCode = (value: string): value is ErrorCode => Object.prototype.hasOwnProperty.call(ERRORS, value);

/** The HTTP status the API answers a code with. */
export const statusOf = (code: ErrorCode): ErrorSpec['status'] => ERRORS[code].status;

/**
 * What services, the ledger, workers and routes throw: a code, optionally the field it is about
 * and a more precise English message (`detail`; without it the API answers with the code's text
 * from locales/en/errors.json). Never an HTTP status.
 */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  /** The precise English message the thrower gave, if any. */
  readonly detail: string | undefined;

  constructor(
    readonly code: ErrorCode,
    readonly field?: string,
    message?: string,
    /** Seconds until the same request may succeed (a limit that lifts with time): the body's retryAfter and the Retry-After header. */
    readonly retryAfter?: number,
  ) {
    super(message ?? code);
    this.detail = message;
  }
}

/** The code a validation issue's message names, when it is one of `codes` (schemas give codes as messages). */
export const codeIn = <C extends ErrorCode>(message: string, codes: readonly C[]): C | undefined =>
  (codes as readonly string[]).includes(message) ? (message as C) : undefined;

/** An unlisted currency code, refused alike wherever a currency is named. */
export const unknownCurrency = (field: string) => new DomainError('validation_failed', field, 'Unknown currency.');

/** Whole seconds to wait, at least one, from milliseconds (a DomainError's retryAfter). */
export const secondsToWait = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/** The body of every error response. */
export type ErrorBody = { error: { code: ErrorCode; message: string; field?: string; retryAfter?: number } };
