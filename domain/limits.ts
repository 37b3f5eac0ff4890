/**
 * Order caps and verification thresholds (docs/decisions/0005), in EUR cents.
 * Invariant: every text that states a limit is rendered from these values.
 */
export const FIRST_ORDER_LIMIT_EUR_MINOR = 10_000n; // 100.00 EUR
export const ORDER_LIMIT_EUR_MINOR = 3_000_000n; // 30,000.00 EUR
/** The rolling window of the weekly volume, in days. */
export const WEEKLY_VOLUME_DAYS = 7;
/** Weekly volume above which ID verification is required. */
export const ID_VERIFICATION_WEEKLY_EUR_MINOR = 300_000n; // 3,000.00 EUR
/** Weekly volume above which mobile verification is required. */
export const MOBILE_VERIFICATION_WEEKLY_EUR_MINOR = 100_000n; // 1,000.00 EUR
/** Default cap on a single EUR deposit into the wallet, until the operator raises it. */
/**
 * Reception addresses a user may hold unused (nothing arrived yet) per currency: enough for a few
 * senders at once, few enough that no one derives addresses without end.
 */
export const UNUSED_ADDRESSES_PER_CURRENCY = 5;

export const DEFAULT_DEPOSIT_LIMIT_EUR_MINOR = 100_000n; // 1,000.00 EUR
