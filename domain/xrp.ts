/**
 * The XRP Ledger's rules that the deposit watcher, the signer and the pages share (issue 31).
 * XRP is account-based: the house has one account (XRP_ADDRESS) and tells users apart by the
 * destination tag of each payment (domain/addresses.ts writes `account:tag`). A transaction in a
 * validated ledger is final: there are no reorgs, so one validated ledger is all the confirmation
 * there is.
 */

/** XRP has 6 decimals: one XRP is 1,000,000 drops. */
export const XRP_DECIMALS = 6;

/** A validated ledger is final (N = 1 on the wallet's and the order's pages). */
export const XRP_CONFIRMATIONS = 1;

/** AccountRoot flag lsfRequireDestTag: the account refuses payments without a destination tag. */
export const LSF_REQUIRE_DEST_TAG = 0x00020000;
/** AccountSet's SetFlag value that turns lsfRequireDestTag on. */
export const ASF_REQUIRE_DEST = 1;

/** Transaction flag tfPartialPayment: `Amount` is only the most that may be delivered. */
export const TF_PARTIAL_PAYMENT = 0x00020000;

/**
 * What the signer pays as `Fee` at most, in drops, whatever the server's open-ledger fee says (a
 * server under load, or a broken one, never spends a fortune): XRP_FEE_CAP_DROPS overrides it.
 * The reference fee is 10 drops; 1,000 drops pays through heavy load.
 */
export const XRP_FEE_CAP_DROPS = 1_000n;

/**
 * `LastLedgerSequence` = the last validated ledger + this margin: a transaction not in a validated
 * ledger by then can never be, and its payout fails (the money goes back). Ledgers close every 3
 * to 5 seconds: 20 ledgers give it about a minute and a half.
 */
export const XRP_LEDGER_MARGIN = 20;

/**
 * The signer's own limits, in drops, checked before it signs whatever the API asks: a compromised
 * API or database cannot drain the house account faster than this.
 */
export const XRP_SIGNER_LIMITS = { perPayout: 100_000_000_000n, daily: 500_000_000_000n }; // 100,000 XRP, 500,000 XRP a day

/** The reserves of a server that does not say (the mainnet values since December 2024): base 1 XRP, 0.2 XRP per owned object. */
export const XRP_DEFAULT_RESERVES = { base: 1_000_000n, owner: 200_000n };

/** `network_id` of server_info, in Muntly's words (absent on older servers and on mainnet before 1.11). */
export const XRPL_NETWORK_IDS: Record<number, 'mainnet' | 'testnet'> = { 0: 'mainnet', 1: 'testnet', 2: 'testnet' };

/**
 * A chain whose transactions expire (LastLedgerSequence): a payout whose transaction was broadcast
 * can still fail for good, and its money go back, once the ledger proves it never will be paid.
 */
export const expiresOnChain = (currency: string): boolean => currency === 'XRP';
