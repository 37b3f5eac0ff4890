/**
 * Error codes the API answers with (DESIGN.md section 5). Codes are stable: the site shows the
 * localized text for a code (locales/<lng>/common.json `errors.<code>`); the message here is the
 * API's own English text for clients that show it directly.
 */
export const ERROR_MESSAGES = {
  // Spec catalogue (section 8).
  invalid_address: 'Invalid address.',
  invalid_email: 'Invalid email address.',
  insufficient_balance: 'Insufficient balance.',
  first_order_limit: 'Order rejected. The first order of each new customer is limited to 100 EUR.',
  order_limit: 'Order rejected. An order can be at most 30,000 EUR.',
  network_fee_exceeds_amount: 'Order rejected. The network fees are higher than the order amount.',
  try_again_soon: 'Try again soon!',
  login_required: 'Please log in to use Send to my wallet / Use my wallet.',
  bank_verification_required: 'You must verify your bank account to use this feature.',
  currency_partially_supported: 'This currency is only partially supported.',
  own_wallet_only: 'This currency is only available with the own-wallet option.',
  verification_not_enabled: 'Contact us to enable this verification.',
  buy_sell_disabled: 'Buying and selling have been disabled since June 2022.',
  // Requests.
  bad_request: 'The request could not be understood.',
  validation_failed: 'A field is missing or invalid.',
  not_found: 'Not found.',
  payload_too_large: 'The request body is too large.',
  internal_error: 'Something went wrong on our side. Nothing was changed; please try again.',
  // Authentication (401) and authorization (403).
  token_missing: 'Log in to use this feature: the request carries no access token.',
  token_malformed: 'The access token is not a valid JWT.',
  token_expired: 'The access token has expired. Log in again.',
  token_not_yet_valid: 'The access token is not valid yet.',
  token_wrong_issuer: 'The access token was issued by an unknown identity provider.',
  token_wrong_audience: 'The access token is not meant for this API.',
  token_unsupported_algorithm: 'The access token must be signed with RS256.',
  token_unknown_key: 'The access token was signed with an unknown key.',
  token_invalid_signature: 'The access token signature is invalid.',
  token_invalid_claims: 'The access token lacks a subject or other required claims.',
  insufficient_scope: 'The access token does not grant this permission.',
  // Field validation (identity step 1 and other forms); `field` names the field.
  required: 'This field is required.',
  too_long: 'This field is too long.',
  too_short: 'This field is too short.',
  invalid_reference: 'An order reference has 16 letters: ABCD-EFGH-IJKL-MNOP.',
  invalid_iban: 'Invalid IBAN.',
  invalid_mobile: 'Invalid mobile number: write it with the country code, e.g. +31 6 12345678.',
  invalid_date: 'Invalid date: use YYYY-MM-DD.',
  too_young: 'You must be at least 18 years old.',
  invalid_country: 'Invalid country: use the two-letter code, e.g. NL.',
  // Identity verification.
  unknown_kind: 'Unknown verification kind.',
  verification_required: 'This needs a further identity verification first: see your identity page.',
  already_verified: 'This verification is already complete.',
  no_code_pending: 'No code has been sent for this verification: submit your data first.',
  invalid_code: 'Wrong code.',
  invalid_code_format: 'A code has 16 letters: ABCD-EFGH-IJKL-MNOP.',
  code_expired: 'This code has expired or was replaced: request a new one.',
  code_attempts_exceeded: 'Too many wrong codes: this code no longer works. Request a new one.',
  // Ledger.
  send_not_pending: 'This send is no longer waiting for its code.',
  invalid_amount: 'Invalid amount: a positive number with at most the currency’s decimals.',
  idempotency_conflict: 'This idempotency key was already used for a different request.',
  order_not_open: 'This order has already received its payment.',
  // Operations.
  not_available_in_production: 'This command is only available with the local identity provider.',
  unknown_user: 'No user with this email address.',
  email_taken: 'An account with this email address already exists.',
  // Faucet.
  registrations_closed: 'Registrations for this round are not open: wait for the next round.',
  already_entered: 'You are already playing in this round.',
  not_your_address: 'Enter one of your own Muntly reception addresses in BTC, ETH, XRP, BCH, LTC or DOGE.',
  faucet_game_over: 'The faucet is not running at the moment (GAME OVER).',
} as const;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** The body of every error response. */
export type ErrorBody = { error: { code: ErrorCode; message: string; field?: string } };
