/** How often the wallet's balances, transactions and a send in progress are asked again while the page is visible. */
export const WALLET_REFRESH_MS = 10_000;
/** The EUR rates move once a minute. */
export const RATES_REFRESH_MS = 60_000;
