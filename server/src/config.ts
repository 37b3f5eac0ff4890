import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { z } from 'zod';
import { CURRENCIES } from '#domain/currencies';
import { CHAIN_NETWORKS, setChainNetwork } from '#domain/networks';
import {
  OPERATOR_ENV,
  REQUIRED_OPERATOR_FIELDS,
  SAMPLE_PAYEE_NAME,
  operatorFromEnv,
  type Operator,
} from '#domain/operator';
import { sepaLatin } from '#domain/payee';
import { DEFAULT_ADDRESS_HOLD_HOURS } from '#domain/protection';
import { PAIN_VERSIONS, sepaIban, type PostalAddress } from '#domain/sepa';
import { XRP_FEE_CAP_DROPS, XRP_LEDGER_MARGIN } from '#domain/xrp';

/**
 * Configuration from the environment, validated once at start-up: a bad value stops the
 * process with a message naming the variable, instead of failing on the first request.
 *
 * Two modes: local (default) runs the embedded database and the local identity provider;
 * production is chosen by setting AUTH0_DOMAIN, and then needs its Auth0 and database settings.
 */
const repoRoot = path.resolve(__dirname, '../..');
const optional = z.preprocess((value) => (value === '' ? undefined : value), z.string().min(1).optional());
/** Blockstream's Esplora API of Bitcoin mainnet: the faucet's default block source with real payouts. */
const MAINNET_EXPLORER = 'https://blockstream.info/api';
/** The payer's address settings, in the order of the address. */
const DEBTOR_ADDRESS_ENV = [
  'BANK_DEBTOR_STREET',
  'BANK_DEBTOR_BUILDING',
  'BANK_DEBTOR_POSTCODE',
  'BANK_DEBTOR_TOWN',
  'BANK_DEBTOR_COUNTRY',
] as const;
/** Local mode's payer address when none is set: a sample, as the operator's is (production refuses to start without one). */
export const SAMPLE_DEBTOR_ADDRESS: PostalAddress = {
  street: 'Musterstrasse',
  building: '1',
  postcode: '10115',
  town: 'Berlin',
  country: 'DE',
};

const schema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8000),
    HOST: z.string().min(1).default('localhost'),
    /** The Gatsby build served as the site. */
    PUBLIC_DIR: z.string().min(1).default(path.join(repoRoot, 'public')),
    /** PGlite data and the local provider's keys. */
    DATA_DIR: z.string().min(1).default(path.join(repoRoot, '.data')),
    DATABASE_URL: optional.pipe(
      z
        .string()
        .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
        .optional(),
    ),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /**
     * `npm run ops`: the server to talk to (default this server, at HOST and PORT), the admin
     * token to use (production), and locally the subject of the token it signs itself: what the
     * audit trail names as the actor.
     */
    OPS_URL: optional.pipe(z.url().optional()),
    OPS_TOKEN: optional,
    OPS_SUBJECT: z
      .string()
      .regex(/^[A-Za-z0-9:|._-]{1,100}$/, 'must be an identifier without spaces, like ops-cli or ops:alice')
      .default('ops-cli'),
    IDP_PORT: z.coerce.number().int().min(1).max(65535).default(4001),
    /** The site's origin (CORS, redirect URIs); defaults to this server. */
    SITE_ORIGIN: optional.pipe(z.url().optional()),
    AUTH0_DOMAIN: optional.pipe(
      z
        .string()
        .regex(/^[a-z0-9.-]+$/i, 'must be a host name like muntly.eu.auth0.com')
        .optional(),
    ),
    AUTH0_CLIENT_ID: optional,
    AUTH0_AUDIENCE: optional,
    /** Where an Auth0 Action puts auth_time and amr in access tokens (Auth0 reserves the plain names), e.g. https://muntly.eu/ */
    AUTH_CLAIM_NAMESPACE: optional.pipe(z.url('must be a URL like https://muntly.eu/').optional()),
    /**
     * docs/decisions/0006: when false, buy and sell answer buy_sell_disabled (swaps and the wallet go on).
     * Unset, it follows the product's texts, which say buying and selling are off since June 2022: off in
     * production (AUTH0_DOMAIN set), on in local mode so the flows can be tried.
     */
    BUY_SELL_ENABLED: z
      .enum(['true', 'false'])
      .optional()
      .transform((v) => (v === undefined ? undefined : v === 'true')),
    /**
     * Muntly's bank account that buyers pay into, whose statements are imported and from which the
     * payouts file pays (local default: a well-known test IBAN, shown marked as a sample).
     */
    BANK_IBAN: z
      .string()
      .default('DE89370400440532013000')
      .refine((value) => sepaIban(value).ok, 'must be a valid IBAN of a SEPA country'),
    BANK_BIC: z
      .string()
      .trim()
      .regex(/^([A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?)?$/, 'must be a BIC of 8 or 11 letters and digits, or empty')
      .default('COBADEFFXXX'),
    /**
     * The account holder's name as the bank writes it, only when it spells the operator's legal name
     * differently (case, accents, another script): payers' banks check the payee's name against the
     * account (Verification of Payee, since October 2025) and warn on a mismatch, so the name paid to
     * is OPERATOR_NAME's, and a name that is not the operator's stops the start. Unset: OPERATOR_NAME
     * (local mode: the sample operator's).
     */
    BANK_BENEFICIARY: optional,
    /**
     * The payouts file's message (server/src/modules/bank/pain.ts): pain.001.001.09 by default, as
     * the EPC's guidelines since 2023 and the German banks since November 2025 take it; `03` for a
     * bank that still asks for pain.001.001.03.
     */
    BANK_PAIN_VERSION: z.enum(PAIN_VERSIONS).default('09'),
    /**
     * The payer's (Muntly's) postal address in the payouts file, structured: a transfer that leaves
     * the EEA must carry it (transfer-of-funds regulation), and from 22 November 2026 the EPC takes
     * it only structured, with the town and the country at least. Street, building and postcode are
     * written when given. Unset (local mode): a sample address; required in production.
     */
    BANK_DEBTOR_STREET: optional.pipe(z.string().max(70, 'must be at most 70 characters (StrtNm)').optional()),
    BANK_DEBTOR_BUILDING: optional.pipe(z.string().max(16, 'must be at most 16 characters (BldgNb)').optional()),
    BANK_DEBTOR_POSTCODE: optional.pipe(z.string().max(16, 'must be at most 16 characters (PstCd)').optional()),
    BANK_DEBTOR_TOWN: optional.pipe(z.string().max(35, 'must be at most 35 characters (TwnNm)').optional()),
    BANK_DEBTOR_COUNTRY: optional.pipe(
      z
        .string()
        .regex(/^[A-Z]{2}$/, 'must be an ISO 3166 country code of two capital letters, like DE')
        .optional(),
    ),
    /**
     * Who operates Muntly (imprint, footer, terms, privacy policy; domain/operator.ts). Without
     * OPERATOR_NAME the site shows marked sample values: local mode only. With it, OPERATOR_ADDRESS
     * and OPERATOR_EMAIL are required too; the others are shown when given.
     */
    OPERATOR_NAME: optional,
    OPERATOR_ADDRESS: optional,
    OPERATOR_REPRESENTATIVES: optional,
    OPERATOR_EMAIL: optional.pipe(z.email('must be an email address').optional()),
    OPERATOR_PHONE: optional,
    OPERATOR_REGISTRATION: optional,
    OPERATOR_VAT_ID: optional,
    OPERATOR_SUPERVISOR: optional,
    /** Its licence or registration as a crypto-asset service provider (MiCA), shown on the home and order pages. */
    OPERATOR_CASP: optional,
    /** Emails go out through this SMTP server (smtp://user:pass@host:587, smtps://…); without it they stay in the outbox (local mailbox page). */
    SMTP_URL: optional.pipe(
      z
        .string()
        .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
        .optional(),
    ),
    MAIL_FROM: z.string().min(3).default('Muntly <no-reply@muntly.local>'),
    /**
     * How often each replica writes the emails kept as templates (an order's confirmation:
     * notify/outbox-writer.ts); 0: never in the background, only before the outbox is read or relayed.
     */
    EMAIL_WRITER_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    /** How often each replica's order worker looks for funded orders (0: never; tests drive it). */
    ORDER_WORKER_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    /** An order still unpaid after this many days expires (completed, failure reason expired). */
    ORDER_EXPIRY_DAYS: z.coerce.number().int().min(1).max(90).default(7),
    /**
     * Behind a load balancer or reverse proxy: which hops to trust for the client's address
     * (X-Forwarded-For), so that per-client limits count clients, not the proxy. A hop count
     * ("1"), or the proxies' addresses/CIDRs ("10.0.0.0/8,127.0.0.1"). Unset: the socket's peer,
     * because trusting the header without a proxy lets any client pick its own address.
     */
    TRUST_PROXY: optional.pipe(
      z
        .string()
        .regex(
          /^(\d{1,2}|[0-9a-f.:/]+(\s*,\s*[0-9a-f.:/]+)*)$/i,
          'must be a hop count like 1, or proxy addresses/CIDRs like 10.0.0.0/8,127.0.0.1',
        )
        .transform((value) => (/^\d+$/.test(value) ? Number(value) : value.split(',').map((part) => part.trim())))
        .optional(),
    ),
    /**
     * Who executes payouts: crypto (CHAIN_PAYOUTS) and SEPA (BANK_PAYOUTS). `simulated` pays at once
     * (local mode only); `signer` / `external` leave each payout to an outside executor that lists
     * them and reports back through /api/ops/payouts. Required in production.
     */
    CHAIN_PAYOUTS: z.enum(['simulated', 'signer']).optional(),
    /**
     * Real nodes (issue 30): a Bitcoin Core-style JSON-RPC URL per currency,
     * http://user:password@host:port, switches that currency to the node: the deposit watcher
     * follows its blocks and the signer (`npm run signer`) pays its payouts. Without one the
     * currency stays simulated (local mode) or on CHAIN_PAYOUTS' executor.
     */
    CHAIN_RPC_URL_BTC: optional.pipe(z.url().optional()),
    CHAIN_RPC_URL_LTC: optional.pipe(z.url().optional()),
    CHAIN_RPC_URL_DOGE: optional.pipe(z.url().optional()),
    CHAIN_RPC_URL_BCH: optional.pipe(z.url().optional()),
    /**
     * The XRP Ledger (issue 31): a rippled or Clio JSON-RPC URL, http(s)://host:port. The watcher
     * reads the house account's (XRP_ADDRESS) validated transactions, the signer pays XRP payouts.
     */
    CHAIN_RPC_URL_XRP: optional.pipe(z.url().optional()),
    /** The most the signer pays as an XRP transaction's Fee, in drops, whatever the server's open-ledger fee. */
    XRP_FEE_CAP_DROPS: z.coerce.bigint().min(10n).max(1_000_000n).default(XRP_FEE_CAP_DROPS),
    /** LastLedgerSequence = the last validated ledger + this many: an XRP payout not validated by then fails (its money goes back). At most 900: rippled's `tx` searches 1,000 ledgers at most. */
    XRP_LEDGER_MARGIN: z.coerce.number().int().min(4).max(900).default(XRP_LEDGER_MARGIN),
    /** Ether (issue 31): an Ethereum JSON-RPC URL (geth, reth, Nethermind, anvil); its chainId must match CHAIN_NETWORK. */
    CHAIN_RPC_URL_ETH: optional.pipe(z.url().optional()),
    /** Confirmations before a deposit is credited and a payout confirmed (defaults: domain/chain.ts DEFAULT_CONFIRMATIONS). */
    CONFIRMATIONS_BTC: z.coerce.number().int().min(1).max(1000).optional(),
    CONFIRMATIONS_LTC: z.coerce.number().int().min(1).max(1000).optional(),
    CONFIRMATIONS_DOGE: z.coerce.number().int().min(1).max(1000).optional(),
    CONFIRMATIONS_BCH: z.coerce.number().int().min(1).max(1000).optional(),
    CONFIRMATIONS_ETH: z.coerce.number().int().min(1).max(1000).optional(),
    /** How often each replica reconciles the coins on chain with the ledger (default daily; 0: never, `ops reconcile` still works). */
    RECONCILE_INTERVAL_MS: z.coerce.number().int().min(0).max(604_800_000).default(86_400_000),
    /** With a node: the margin (percent) on the node's fee estimate that users are charged as the network fee (chain/fees.ts). */
    NETWORK_FEE_MARGIN_PERCENT: z.coerce.number().min(0).max(1000).default(20),
    /** How often the deposit watcher asks each node for new blocks (0: never; tests drive it). */
    CHAIN_POLL_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
    /**
     * The key the API and the signer share to authenticate payouts (64 hex digits; payouts/instruction.ts).
     * Unset: a key kept in DATA_DIR (local mode). Required with a node in production.
     */
    SIGNER_KEY: optional.pipe(
      z
        .string()
        .regex(/^[0-9a-f]{64}$/i, 'must be 64 hex digits (openssl rand -hex 32)')
        .optional(),
    ),
    /** The signer only: the BIP-39 mnemonic it derives every house key from (unset: the public test mnemonic, local mode only). */
    SIGNER_SEED_FILE: optional,
    /** The signer only: how often it asks for payouts, and after how many minutes unconfirmed it replaces a transaction by fee. */
    SIGNER_POLL_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
    SIGNER_BUMP_AFTER_MINUTES: z.coerce.number().min(0.01).max(10_000).default(60),
    /** The signer only: the highest EIP-1559 max fee per gas it ever signs, in gwei (a broken estimate or a spike never spends a fortune; above it ether waits). */
    ETH_MAX_FEE_GWEI: z.coerce.number().min(0.001).max(100_000).default(200),
    BANK_PAYOUTS: z.enum(['simulated', 'external']).optional(),
    /** How often each replica's payout worker looks for payouts to submit (0: never; tests drive it). */
    PAYOUT_WORKER_INTERVAL_MS: z.coerce.number().int().min(0).max(600_000).default(1000),
    /** How long a worker may take between taking a payout and booking its result before another worker takes it again. */
    PAYOUT_LEASE_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    /** The crash suite only: a pause between the adapter's answer and booking it, to kill a worker there. */
    PAYOUT_BOOKING_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
    /**
     * Four eyes on payouts (docs/operating.md, "Payouts waiting for approval"): a crypto send or payout worth
     * more than this many EUR when it is requested, and any payout of an account whose bank or ID
     * verification is younger than PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS days (0: none), waits until two
     * operators approve it.
     */
    PAYOUT_APPROVAL_ABOVE_EUR: z
      .string()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an EUR amount like 10000 or 2500.50')
      .default('10000'),
    PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS: z.coerce.number().int().min(0).max(365).default(7),
    /** How often each replica deletes data whose retention period has ended (0: never; `ops retention` still works). */
    RETENTION_INTERVAL_MS: z.coerce.number().int().min(0).max(86_400_000).default(3_600_000),
    /**
     * How often a proof of liabilities is published (default daily; 0: never by itself, `ops
     * liabilities:publish` still works). Each replica looks once a minute; one snapshot per period.
     */
    LIABILITIES_INTERVAL_MS: z.coerce
      .number()
      .int()
      .min(0)
      .max(31 * 86_400_000)
      .default(86_400_000),
    /**
     * With real payouts (CHAIN_PAYOUTS=signer): an Esplora API (Blockstream's, mempool.space's or
     * the operator's own) the faucet reads Bitcoin blocks from, to mix the first block after
     * registrations close into each draw. Local mode uses the simulated chain's blocks; with
     * CHAIN_RPC_URL_BTC the faucet reads them from Muntly's own node instead.
     */
    CHAIN_BLOCKS_URL: z.url().default(MAINNET_EXPLORER),
    /** Order lookups (and their event streams) allowed per minute per IP and per email address. */
    LOOKUP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
    /** Orders placed per hour for one email address (each order mails it) and from one client address. */
    ORDER_LIMIT_PER_EMAIL_PER_HOUR: z.coerce.number().int().min(1).default(10),
    ORDER_LIMIT_PER_CLIENT_PER_HOUR: z.coerce.number().int().min(1).default(30),
    /** The server ends each live stream (order status, faucet) after at most this long; the browser reconnects. */
    EVENT_STREAM_MAX_LIFETIME_MS: z.coerce.number().int().min(100).max(86_400_000).default(900_000),
    /**
     * Slow clients (issue 16): how long one request may take to arrive, headers and body together
     * (a client sending a byte every few seconds is cut off after this, answered 408
     * `request_timeout`), and the headers alone. Only receiving the request counts: a response
     * being written, such as a live event stream, is not limited by them.
     */
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    /**
     * How often the server looks for requests past those two limits (Node's own default, 30 s,
     * would let a limit of 30 s run to nearly a minute).
     */
    HTTP_TIMEOUT_CHECK_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(2_000),
    /**
     * A connection with no traffic either way for this long is closed. At least 30 s: a live
     * event stream is never silent longer than one and a half heartbeats (22.5 s, sse.ts).
     */
    HTTP_IDLE_TIMEOUT_MS: z.coerce.number().int().min(30_000).max(3_600_000).default(120_000),
    /** An idle keep-alive connection is closed after this long (above a load balancer's usual 60 s, so the balancer closes first). */
    HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(72_000),
    /** `npm run bench:orders` only: a bare one-row insert endpoint to compare with. Never in production. */
    BENCH_ROUTES: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    /** The EUR rate feed: the seeded simulation, or CoinGecko's public API (cached 60 s). */
    RATES_FEED: z.enum(['simulated', 'coingecko']).default('simulated'),
    RATES_FEED_URL: z.url().default('https://api.coingecko.com/api/v3'),
    /**
     * The chain of the Bitcoin-family addresses (BTC, LTC, DOGE, BCH; domain/networks.ts): the
     * addresses Muntly derives, accepts and shows. Build the site with the same GATSBY_CHAIN_NETWORK.
     */
    CHAIN_NETWORK: z.enum(CHAIN_NETWORKS).default('mainnet'),
    /** Watch-only extended public keys for reception addresses (local mode: public test keys). */
    // BTC and LTC: the xpub or the zpub (native segwit) the operator's wallet exports (tpub / vpub from a testnet or
    // regtest wallet); the addresses follow CHAIN_NETWORK either way (bc1 / ltc1 on mainnet). DOGE and BCH: xpub or tpub.
    XPUB_BTC: optional.pipe(
      z
        .string()
        .regex(
          /^(xpub|zpub|tpub|vpub)[1-9A-HJ-NP-Za-km-z]{100,}$/,
          'must be an xpub or a zpub (tpub or vpub on a test network)',
        )
        .optional(),
    ),
    XPUB_LTC: optional.pipe(
      z
        .string()
        .regex(
          /^(xpub|zpub|tpub|vpub)[1-9A-HJ-NP-Za-km-z]{100,}$/,
          'must be an xpub or a zpub (tpub or vpub on a test network)',
        )
        .optional(),
    ),
    XPUB_DOGE: optional.pipe(
      z
        .string()
        .regex(/^(xpub|tpub)[1-9A-HJ-NP-Za-km-z]{100,}$/, 'must be an xpub (tpub on a test network)')
        .optional(),
    ),
    XPUB_BCH: optional.pipe(
      z
        .string()
        .regex(/^(xpub|tpub)[1-9A-HJ-NP-Za-km-z]{100,}$/, 'must be an xpub (tpub on a test network)')
        .optional(),
    ),
    XPUB_ETH: optional.pipe(
      z
        .string()
        .regex(/^xpub[1-9A-HJ-NP-Za-km-z]{100,}$/, 'must be an xpub')
        .optional(),
    ),
    XRP_ADDRESS: optional.pipe(
      z
        .string()
        .regex(/^r[1-9A-HJ-NP-Za-km-z]{24,34}$/, 'must be a classic XRP address')
        .optional(),
    ),
    /**
     * Account protection (issue 19). A new address-book entry is usable this many hours after it
     * was added (another Muntly user's address at once); the allow-list mode may be switched off
     * this long after it was switched on.
     */
    ADDRESS_HOLD_HOURS: z.coerce.number().min(0).max(720).default(DEFAULT_ADDRESS_HOLD_HOURS),
    /** Sends wait this long after the anti-phishing phrase, the allow-list mode or the email address changed. */
    SEND_COOLDOWN_HOURS: z.coerce.number().min(0).max(720).default(24),
    /** An unfreeze confirmed with its emailed code takes effect this long after (the operator can unfreeze at once). */
    UNFREEZE_COOLDOWN_HOURS: z.coerce.number().min(0).max(720).default(24),
    /** Confirming a send needs a login (the token's auth_time) at most this many minutes old. */
    SEND_MAX_AUTH_AGE_MINUTES: z.coerce.number().min(1).max(1440).default(15),
    /** A send worth more than this (EUR) needs a login with a second factor (amr otp/mfa in the token); 0: every send. */
    SEND_SECOND_FACTOR_ABOVE_EUR: z
      .string()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an EUR amount like 1000.00')
      .default('1000'),
    /**
     * The key that signs the freeze and cancel links of security emails (at least 32 characters,
     * e.g. `openssl rand -base64 48`); required in production. Local mode keeps one in DATA_DIR.
     */
    SECURITY_LINK_SECRET: optional.pipe(
      z.string().min(32, 'must be at least 32 characters (openssl rand -base64 48)').optional(),
    ),
    /**
     * The shared secret an Auth0 post-login Action sends to POST /api/security/sign-ins to report
     * a login (account protection's "sign-in from a new device"; at least 32 characters). Unset:
     * that endpoint answers 404 (the local identity provider reports its logins in-process).
     */
    SIGN_IN_REPORT_SECRET: optional.pipe(
      z.string().min(32, 'must be at least 32 characters (openssl rand -base64 48)').optional(),
    ),
    /** How long the links of a security email work (each once). */
    SECURITY_LINK_TTL_HOURS: z.coerce.number().min(1).max(2160).default(168),
    /** Faucet: one whole round (its four phases), fractions allowed for tests; the reward; the budget a new faucet starts with. */
    FAUCET_ROUND_SECONDS: z.coerce.number().min(0.2).max(86_400).default(360),
    FAUCET_REWARD_EUR: z
      .string()
      .regex(/^(?!0+(\.0+)?$)\d{1,6}(\.\d{1,2})?$/, 'must be a positive EUR amount like 0.02')
      .default('0.02'),
    /** Rounds per seed chain (its anchor is published before its first round; the next chain a round before it runs out). */
    FAUCET_SEED_CHAIN_LENGTH: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    FAUCET_BUDGET_EUR: z
      .string()
      .regex(/^\d{1,9}(\.\d{1,2})?$/, 'must be an EUR amount like 10.00')
      .default('10.00'),
  })
  .superRefine((env, ctx) => {
    // Node refuses a headers limit longer than the whole request's.
    if (env.HTTP_HEADERS_TIMEOUT_MS > env.HTTP_REQUEST_TIMEOUT_MS)
      ctx.addIssue({
        code: 'custom',
        path: ['HTTP_HEADERS_TIMEOUT_MS'],
        message: 'must not exceed HTTP_REQUEST_TIMEOUT_MS',
      });
    // A named operator is named completely; the sample stands in only while nobody is named.
    const operatorGiven = Object.values(OPERATOR_ENV).filter((key) => env[key]);
    if (env.OPERATOR_NAME || operatorGiven.length) {
      for (const field of REQUIRED_OPERATOR_FIELDS) {
        const key = OPERATOR_ENV[field];
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `is required when ${operatorGiven.join(', ')} ${operatorGiven.length > 1 ? 'are' : 'is'} set: the imprint must name the operator, its address and email`,
          });
      }
    }
    // The payee's name is the operator's: one legal name on the transfer, the imprint and the footer.
    if (env.BANK_BENEFICIARY && !sameLegalName(env.BANK_BENEFICIARY, env.OPERATOR_NAME?.trim() || SAMPLE_PAYEE_NAME))
      ctx.addIssue({
        code: 'custom',
        path: ['BANK_BENEFICIARY'],
        message: env.OPERATOR_NAME
          ? `must be the operator's legal name (OPERATOR_NAME "${env.OPERATOR_NAME.trim()}"), as the bank writes it: payers' banks check the payee's name (Verification of Payee) and warn on a mismatch`
          : `is set without OPERATOR_NAME: the payee's name is the operator's legal name, so set OPERATOR_NAME (and leave BANK_BENEFICIARY unset unless the bank spells it differently)`,
      });
    // The payer's address is one: once any part is given, the town and country the EPC requires are too.
    const debtorGiven = DEBTOR_ADDRESS_ENV.filter((key) => env[key]);
    if (debtorGiven.length)
      for (const key of ['BANK_DEBTOR_TOWN', 'BANK_DEBTOR_COUNTRY'] as const)
        if (!env[key])
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: `is required when ${debtorGiven.join(', ')} ${debtorGiven.length > 1 ? 'are' : 'is'} set: the EPC takes a payer's address with its town and country`,
          });
    // The faucet's blocks come from the network Muntly follows: off mainnet, mainnet's explorer is the wrong chain.
    if (
      env.CHAIN_PAYOUTS === 'signer' &&
      env.CHAIN_NETWORK !== 'mainnet' &&
      !env.CHAIN_RPC_URL_BTC &&
      env.CHAIN_BLOCKS_URL === MAINNET_EXPLORER
    )
      ctx.addIssue({
        code: 'custom',
        path: ['CHAIN_BLOCKS_URL'],
        message: `is Bitcoin mainnet's explorer, but CHAIN_NETWORK is ${env.CHAIN_NETWORK}: set CHAIN_RPC_URL_BTC (the faucet then reads its blocks from that node) or an explorer of ${env.CHAIN_NETWORK}`,
      });
    if (!env.AUTH0_DOMAIN) return;
    // Production names the company responsible: the imprint, terms and privacy policy never show the sample.
    if (!operatorGiven.length)
      ctx.addIssue({
        code: 'custom',
        path: ['OPERATOR_NAME'],
        message:
          'is required when AUTH0_DOMAIN is set (production): the imprint, terms and privacy policy name the operator (also OPERATOR_ADDRESS, OPERATOR_EMAIL; docs/configuration.md)',
      });
    if (env.BENCH_ROUTES)
      ctx.addIssue({ code: 'custom', path: ['BENCH_ROUTES'], message: 'is for benchmarks only, never in production' });
    // Production's payouts file names Muntly's real address, never the sample.
    if (!debtorGiven.length)
      ctx.addIssue({
        code: 'custom',
        path: ['BANK_DEBTOR_TOWN'],
        message:
          "is required when AUTH0_DOMAIN is set (production), with BANK_DEBTOR_COUNTRY (and BANK_DEBTOR_STREET, BANK_DEBTOR_BUILDING, BANK_DEBTOR_POSTCODE): the payouts file carries the payer's structured address (docs/configuration.md)",
      });
    if (env.PAYOUT_BOOKING_DELAY_MS > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['PAYOUT_BOOKING_DELAY_MS'],
        message: 'is for the crash suite only, never in production',
      });
    // Production never pretends to pay: the payouts go to a real executor, named explicitly.
    if (env.CHAIN_PAYOUTS !== 'signer')
      ctx.addIssue({
        code: 'custom',
        path: ['CHAIN_PAYOUTS'],
        message: 'must be "signer" in production (AUTH0_DOMAIN set): the simulated chain pays nobody',
      });
    if (env.BANK_PAYOUTS !== 'external')
      ctx.addIssue({
        code: 'custom',
        path: ['BANK_PAYOUTS'],
        message: 'must be "external" in production (AUTH0_DOMAIN set): the simulated bank pays nobody',
      });
    const withNode = (['BTC', 'LTC', 'DOGE', 'BCH', 'ETH'] as const).some((code) => env[`CHAIN_RPC_URL_${code}`]);
    if (env.CHAIN_RPC_URL_XRP && !env.XRP_ADDRESS)
      ctx.addIssue({
        code: 'custom',
        path: ['XRP_ADDRESS'],
        message: 'is required in production with CHAIN_RPC_URL_XRP: the local default is a public test account',
      });
    if ((withNode || env.CHAIN_RPC_URL_XRP) && !env.SIGNER_KEY)
      ctx.addIssue({
        code: 'custom',
        path: ['SIGNER_KEY'],
        message: 'is required in production with a node (CHAIN_RPC_URL_…): the API and the signer share it',
      });
    for (const key of ['AUTH0_CLIENT_ID', 'AUTH0_AUDIENCE', 'DATABASE_URL', 'SECURITY_LINK_SECRET'] as const) {
      if (!env[key])
        ctx.addIssue({ code: 'custom', path: [key], message: 'is required when AUTH0_DOMAIN is set (production)' });
    }
  });

/** Every setting and its default: docs/configuration.md lists them, and __tests__/configuration-doc.test.ts keeps the two in step. */
export const configSchema = schema;

export type Config = Omit<z.infer<typeof schema>, 'CHAIN_PAYOUTS' | 'BANK_PAYOUTS' | 'BUY_SELL_ENABLED'> & {
  BUY_SELL_ENABLED: boolean;
  CHAIN_PAYOUTS: 'simulated' | 'signer';
  BANK_PAYOUTS: 'simulated' | 'external';
  /** True when the local identity provider is used (no AUTH0_DOMAIN). */
  localIdp: boolean;
  /** The token issuer, with its trailing slash as Auth0 writes it. */
  authIssuer: string;
  authAudience: string;
  authClientId: string;
  siteOrigin: string;
  /** Who operates Muntly (OPERATOR_*), or the sample marker when nobody is named (local mode). */
  operator: Operator;
  /** Block explorers' transaction pages per currency, `{txid}` where the hash goes (EXPLORER_URL_<CURRENCY>); none by default. */
  explorers: Record<string, string>;
  /** Where `npm run ops` reaches this server: OPS_URL, or HOST and PORT. */
  opsUrl: string;
  /** Muntly's structured address as the payer of the payouts file (BANK_DEBTOR_*), the sample in local mode. */
  bankDebtorAddress: PostalAddress;
  /**
   * Muntly's bank account as payers see it and the payouts file names it: the holder is the
   * operator's legal name (BANK_BENEFICIARY's spelling of it when given); `sample` when the IBAN
   * or the operator is local mode's sample, which the pages mark.
   */
  bank: { iban: string; bic: string; beneficiary: string; sample: boolean };
};

/**
 * Whether two spellings name the same company: equal once written in SEPA's Latin letters
 * (accents and other scripts transliterated), ignoring case and spaces.
 */
export function sameLegalName(a: string, b: string): boolean {
  // Banks write an umlaut as its letter (ü → u) or, the German way, with an e (ü → ue).
  const german = (name: string) => name.replace(/[äöüÄÖÜ]/g, (c) => `${c.normalize('NFD')[0]}e`);
  const spellings = (name: string) =>
    new Set([name, german(name)].map((spelling) => sepaLatin(spelling).toLowerCase().replace(/\s+/g, ' ')));
  const ofB = spellings(b);
  return [...spellings(a)].some((spelling) => ofB.has(spelling));
}

export const LOCAL_AUDIENCE = 'https://api.muntly.local';
export const LOCAL_CLIENT_ID = 'muntly-local';

const EXPLORER_PREFIX = 'EXPLORER_URL_';

/**
 * EXPLORER_URL_<CURRENCY>=https://mempool.space/tx/{txid}: where the site links a transaction
 * hash in that currency. Only listed crypto currencies, only http(s) addresses with `{txid}` in
 * them; without any (local mode) hashes are shown as text to copy.
 */
function explorersFrom(env: NodeJS.ProcessEnv): { explorers: Record<string, string>; problems: string[] } {
  const explorers: Record<string, string> = {};
  const problems: string[] = [];
  for (const [key, raw] of Object.entries(env)) {
    if (!key.startsWith(EXPLORER_PREFIX) || raw === undefined || raw === '') continue;
    const code = key.slice(EXPLORER_PREFIX.length);
    const example = raw.replace('{txid}', 'txid');
    const url = URL.canParse(example) ? new URL(example) : null;
    if (!CURRENCIES.some((currency) => currency.code === code))
      problems.push(`${key}: ${code} is not a listed crypto currency`);
    else if (!raw.includes('{txid}') || !url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      problems.push(`${key}: must be an http(s) URL with {txid} where the transaction hash goes`);
    else explorers[code] = raw;
  }
  return { explorers, problems };
}

/**
 * The environment the server and `npm run ops` both read, so that they agree on PORT, IDP_PORT,
 * DATA_DIR and the rest: the process's variables, over those in ENV_FILE (default `.env` at the
 * repository's root, when there is one). Started in different shells, the two still find each
 * other when the settings are in that file.
 */
export function environment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const file = env.ENV_FILE || path.join(repoRoot, '.env');
  if (!fs.existsSync(file)) {
    if (env.ENV_FILE) throw new Error(`Invalid configuration:\n  ENV_FILE: ${file} does not exist`);
    return env;
  }
  return { ...parseEnv(fs.readFileSync(file, 'utf8')), ...env };
}

/** This server as seen from this machine: a wildcard interface is reached at localhost, IPv6 in brackets. */
function localUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export function loadConfig(env: NodeJS.ProcessEnv = environment()): Config {
  const result = schema.safeParse(env);
  const { explorers, problems: explorerProblems } = explorersFrom(env);
  if (!result.success || explorerProblems.length) {
    const problems = [
      ...(result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)),
      ...explorerProblems,
    ];
    throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const c = result.data;
  // Process-wide: validation and derivation read it where no config is passed (domain/networks.ts).
  setChainNetwork(c.CHAIN_NETWORK);
  const localIdp = !c.AUTH0_DOMAIN;
  return {
    ...c,
    localIdp,
    authIssuer: localIdp ? `http://localhost:${c.IDP_PORT}/` : `https://${c.AUTH0_DOMAIN}/`,
    authAudience: c.AUTH0_AUDIENCE ?? LOCAL_AUDIENCE,
    authClientId: c.AUTH0_CLIENT_ID ?? LOCAL_CLIENT_ID,
    operator: operatorFromEnv(c),
    siteOrigin: (c.SITE_ORIGIN ?? `http://localhost:${c.PORT}`).replace(/\/$/, ''),
    // Local mode pays through the simulation unless told otherwise (production requires a choice).
    CHAIN_PAYOUTS: c.CHAIN_PAYOUTS ?? 'simulated',
    BANK_PAYOUTS: c.BANK_PAYOUTS ?? 'simulated',
    BUY_SELL_ENABLED: c.BUY_SELL_ENABLED ?? localIdp,
    explorers,
    opsUrl: (c.OPS_URL ?? localUrl(c.HOST, c.PORT)).replace(/\/$/, ''),
    bankDebtorAddress: c.BANK_DEBTOR_TOWN
      ? {
          town: c.BANK_DEBTOR_TOWN,
          country: c.BANK_DEBTOR_COUNTRY!,
          ...(c.BANK_DEBTOR_STREET ? { street: c.BANK_DEBTOR_STREET } : {}),
          ...(c.BANK_DEBTOR_BUILDING ? { building: c.BANK_DEBTOR_BUILDING } : {}),
          ...(c.BANK_DEBTOR_POSTCODE ? { postcode: c.BANK_DEBTOR_POSTCODE } : {}),
        }
      : SAMPLE_DEBTOR_ADDRESS,
    bank: {
      iban: c.BANK_IBAN,
      bic: c.BANK_BIC,
      beneficiary: c.BANK_BENEFICIARY?.trim() || c.OPERATOR_NAME?.trim() || SAMPLE_PAYEE_NAME,
      sample: !env.BANK_IBAN || !c.OPERATOR_NAME,
    },
  };
}
