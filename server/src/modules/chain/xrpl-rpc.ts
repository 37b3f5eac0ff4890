import { XRPL_NETWORK_IDS } from '#domain/xrp';
import type { ChainNetwork } from '#domain/networks';

/**
 * An XRP Ledger server over JSON-RPC (rippled or Clio; CHAIN_RPC_URL_XRP): what the deposit
 * watcher, the reconciliation and the signer ask of it, in the shapes xrpl.org documents
 * (POST {method, params: [{…}]}, the answer in `result` with `status` "success" or "error").
 * Both API versions are read: version 1 puts a transaction in `tx` with its hash and ledger index
 * inside, version 2 (rippled 2.x's default for api_version 2, Clio) in `tx_json` with them beside
 * it, and names `Amount` `DeliverMax`. Amounts of XRP are strings of drops, read with BigInt, never
 * a float; the ledger indexes and reserves are integers well below 2^53.
 */
export class XrplError extends Error {
  constructor(
    message: string,
    /** rippled's error token ('actNotFound', 'txnNotFound', 'slowDown', …), or null for a transport failure. */
    readonly error: string | null = null,
    /** The rest of the error's result (`searched_all` of a txnNotFound). */
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** An amount as the ledger writes it: XRP in drops (a string), or an issued currency (an object). */
export type XrplAmount = string | { currency: string; issuer: string; value: string };

export type XrplTx = {
  hash: string;
  ledgerIndex: number;
  validated: boolean;
  type: string;
  account: string;
  destination: string | null;
  destinationTag: number | null;
  sourceTag: number | null;
  amount: XrplAmount | null;
  flags: number;
  fee: bigint;
  sequence: number | null;
  result: string;
  /** meta.delivered_amount: what the payment really delivered (a partial payment delivers less than `Amount`). */
  delivered: XrplAmount | 'unavailable' | null;
};

export type XrplAccount = {
  balance: bigint;
  sequence: number;
  flags: number;
  ownerCount: number;
  ledgerIndex: number | null;
};
export type XrplServerState = {
  networkId: number | null;
  validated: { seq: number; hash: string; reserveBase: bigint; reserveInc: bigint; baseFee: bigint } | null;
  completeLedgers: string;
};
export type XrplSubmitted = { engineResult: string; message: string; hash: string };
export type XrplTxStatus =
  | { found: true; validated: boolean; result: string; ledgerIndex: number | null }
  | { found: false; searchedAll: boolean };

export interface XrplNode {
  readonly currency: 'XRP';
  state(): Promise<XrplServerState>;
  /** The account at a ledger ('validated' or 'current', the open ledger with what the server applied provisionally); null: it does not exist there. */
  accountInfo(account: string, ledger: 'validated' | 'current'): Promise<XrplAccount | null>;
  /** One page of the account's transactions between two ledgers, oldest first. */
  accountTx(
    account: string,
    min: number,
    max: number,
    marker?: unknown,
  ): Promise<{ transactions: XrplTx[]; marker: unknown }>;
  /** The open ledger's fee and the reference fee, in drops. */
  fee(): Promise<{ openLedger: bigint; base: bigint }>;
  submit(blob: string): Promise<XrplSubmitted>;
  /** A transaction by hash, searched between two ledgers (searchedAll: the server has all of them and it is in none). */
  tx(hash: string, min: number, max: number): Promise<XrplTxStatus>;
  call<T = Record<string, unknown>>(method: string, params?: Record<string, unknown>): Promise<T>;
}

type Fetch = typeof globalThis.fetch;

type RawTx = Record<string, unknown> & { hash?: string; ledger_index?: number };
type RawEntry = {
  tx?: RawTx;
  tx_json?: RawTx;
  meta?: Record<string, unknown> | string;
  hash?: string;
  ledger_index?: number;
  validated?: boolean;
};

export function parseEntry(entry: RawEntry): XrplTx {
  const tx = (entry.tx ?? entry.tx_json ?? {}) as RawTx;
  const meta = typeof entry.meta === 'object' && entry.meta !== null ? entry.meta : {};
  const hash = String(entry.hash ?? tx.hash ?? '');
  const int = (value: unknown): number | null => (value === undefined || value === null ? null : Number(value));
  return {
    hash: hash.toLowerCase(),
    ledgerIndex: Number(entry.ledger_index ?? tx.ledger_index),
    validated: entry.validated === true,
    type: String(tx.TransactionType ?? ''),
    account: String(tx.Account ?? ''),
    destination: typeof tx.Destination === 'string' ? tx.Destination : null,
    destinationTag: int(tx.DestinationTag),
    sourceTag: int(tx.SourceTag),
    amount: (tx.Amount ?? tx.DeliverMax ?? null) as XrplAmount | null,
    flags: Number(tx.Flags ?? 0),
    fee: BigInt(String(tx.Fee ?? '0')),
    sequence: int(tx.Sequence),
    result: String(meta.TransactionResult ?? ''),
    delivered: (meta.delivered_amount ?? meta.DeliveredAmount ?? null) as XrplTx['delivered'],
  };
}

/** Drops of an XRP amount; null for an issued currency (an object) or anything that is not a whole number of drops. */
export function dropsOf(amount: XrplAmount | 'unavailable' | null): bigint | null {
  if (typeof amount !== 'string' || !/^\d{1,20}$/.test(amount)) return null;
  return BigInt(amount);
}

/**
 * The server's network in Muntly's words, from server_info's network_id (0 mainnet, 1 testnet, 2
 * devnet, a test chain too); `unknown` for another id (a sidechain, a private network), `unsaid`
 * when the server does not say (older servers).
 */
export function xrplNetworkOf(networkId: number | null): ChainNetwork | 'unknown' | 'unsaid' {
  if (networkId === null) return 'unsaid';
  return XRPL_NETWORK_IDS[networkId] ?? 'unknown';
}

/**
 * Whether a server of `networkId` may serve CHAIN_NETWORK: mainnet only with network_id 0, testnet
 * with the test network or devnet, regtest (a standalone or private server) with anything but
 * mainnet. A server that does not say is accepted with a warning: nothing else it answers tells
 * the networks apart (its genesis is not served, `hostid` is a name).
 */
export function checkXrplNetwork(
  networkId: number | null,
  expected: ChainNetwork,
): { ok: true; warning: string | null } | { ok: false; message: string } {
  const network = xrplNetworkOf(networkId);
  if (network === 'unsaid')
    return {
      ok: true,
      warning: `the XRP server at CHAIN_RPC_URL_XRP does not say its network (no network_id): it is taken to be ${expected}`,
    };
  const fits = expected === 'regtest' ? network !== 'mainnet' : network === expected;
  if (fits) return { ok: true, warning: null };
  return {
    ok: false,
    message: `CHAIN_RPC_URL_XRP is a server of XRP Ledger network ${networkId} (${network}), but CHAIN_NETWORK is ${expected}`,
  };
}

/**
 * `url` is CHAIN_RPC_URL_XRP: http(s)://host:port of a rippled or Clio JSON-RPC port. Credentials
 * in the URL (a proxy's) go in a Basic header, never in a log line.
 */
export function xrplNode(url: string, options: { fetch?: Fetch; timeoutMs?: number } = {}): XrplNode {
  const parsed = new URL(url);
  const auth = parsed.username
    ? `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`
    : null;
  parsed.username = '';
  parsed.password = '';
  const endpoint = parsed.toString();
  const doFetch = options.fetch ?? globalThis.fetch;

  async function call<T = Record<string, unknown>>(method: string, params: Record<string, unknown> = {}): Promise<T> {
    const response = await doFetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
      body: JSON.stringify({ method, params: [params] }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    let body: { result?: Record<string, unknown> & { status?: string; error?: string; error_message?: string } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new XrplError(`XRP server answered HTTP ${response.status} without JSON`);
    }
    const result = body.result;
    if (!result) throw new XrplError(`XRP server answered HTTP ${response.status} without a result`);
    if (result.status === 'error' || result.error) {
      throw new XrplError(
        `XRP server: ${method}: ${String(result.error_message ?? result.error)}`,
        String(result.error ?? 'unknown'),
        result,
      );
    }
    return result as T;
  }

  return {
    currency: 'XRP',
    call,
    async state() {
      type Raw = {
        state: {
          network_id?: number;
          complete_ledgers?: string;
          validated_ledger?: { seq: number; hash: string; reserve_base: number; reserve_inc: number; base_fee: number };
        };
      };
      const { state } = await call<Raw>('server_state');
      const v = state.validated_ledger;
      return {
        networkId: state.network_id ?? null,
        completeLedgers: state.complete_ledgers ?? '',
        validated: v
          ? {
              seq: Number(v.seq),
              hash: v.hash,
              reserveBase: BigInt(v.reserve_base),
              reserveInc: BigInt(v.reserve_inc),
              baseFee: BigInt(v.base_fee),
            }
          : null,
      };
    },
    async accountInfo(account, ledger) {
      type Raw = {
        account_data: { Balance: string; Sequence: number; Flags: number; OwnerCount: number };
        ledger_index?: number;
        ledger_current_index?: number;
      };
      try {
        const raw = await call<Raw>('account_info', { account, ledger_index: ledger, strict: true });
        const data = raw.account_data;
        return {
          balance: BigInt(data.Balance),
          sequence: Number(data.Sequence),
          flags: Number(data.Flags),
          ownerCount: Number(data.OwnerCount),
          ledgerIndex: raw.ledger_index ?? raw.ledger_current_index ?? null,
        };
      } catch (error) {
        if (error instanceof XrplError && error.error === 'actNotFound') return null;
        throw error;
      }
    },
    async accountTx(account, min, max, marker) {
      const raw = await call<{ transactions: RawEntry[]; marker?: unknown }>('account_tx', {
        account,
        ledger_index_min: min,
        ledger_index_max: max,
        forward: true,
        limit: 200,
        ...(marker === undefined ? {} : { marker }),
      });
      return { transactions: raw.transactions.map(parseEntry), marker: raw.marker };
    },
    async fee() {
      const raw = await call<{ drops: { open_ledger_fee: string; base_fee: string } }>('fee');
      return { openLedger: BigInt(raw.drops.open_ledger_fee), base: BigInt(raw.drops.base_fee) };
    },
    async submit(blob) {
      const raw = await call<{ engine_result: string; engine_result_message?: string; tx_json?: { hash?: string } }>(
        'submit',
        { tx_blob: blob },
      );
      return {
        engineResult: raw.engine_result,
        message: raw.engine_result_message ?? '',
        hash: String(raw.tx_json?.hash ?? '').toLowerCase(),
      };
    },
    async tx(hash, min, max) {
      try {
        const raw = await call<{ validated?: boolean; meta?: { TransactionResult?: string }; ledger_index?: number }>(
          'tx',
          { transaction: hash.toUpperCase(), min_ledger: min, max_ledger: max },
        );
        return {
          found: true,
          validated: raw.validated === true,
          result: String(raw.meta?.TransactionResult ?? ''),
          ledgerIndex: raw.ledger_index ?? null,
        };
      } catch (error) {
        if (error instanceof XrplError && error.error === 'txnNotFound') {
          // rippled says whether it has every ledger of the range (searched_all): only then is "not found" an answer.
          return { found: false, searchedAll: error.data.searched_all === true };
        }
        throw error;
      }
    },
  };
}
