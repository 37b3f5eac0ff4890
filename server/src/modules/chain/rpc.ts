import { normalizeAddress } from '#domain/addresses';
import { decimalToMinor } from '#domain/money';
import type { NodeCurrency } from '#domain/chain';
import type { ChainNetwork } from '#domain/networks';

/**
 * A Bitcoin Core-style node over JSON-RPC (Bitcoin Core, Litecoin Core, Dogecoin Core, Bitcoin
 * Cash Node): what the deposit watcher and the signer ask of a chain. One implementation serves
 * the four coins; where their dialects differ it reads both:
 * - an output's address: `scriptPubKey.address` (Core ≥ 22) or `scriptPubKey.addresses[0]` (older
 *   nodes, Litecoin 0.21, Dogecoin 1.14, BCHN);
 * - a block with its transactions: `getblock hash 2` (Core, Litecoin, BCHN), or, where the node only
 *   knows `getblock hash true` (Dogecoin 1.14), the block's txids and `getrawtransaction txid true`.
 * Amounts are read as the decimal text the node wrote, never through a float (parseAmountsAsText).
 */
export type NodeOutput = { vout: number; amount: bigint; address: string | null };
export type NodeTx = { txid: string; inputs: { txid: string; vout: number }[]; outputs: NodeOutput[] };
export type NodeBlock = { height: number; hash: string; previousHash: string | null; txs: NodeTx[] };

export interface CoinNode {
  readonly currency: NodeCurrency;
  /** The node's network, in Muntly's words. */
  network(): Promise<ChainNetwork>;
  tip(): Promise<{ height: number; hash: string }>;
  /** The hash of the block at `height` on the node's best chain, or null above its tip. */
  blockHash(height: number): Promise<string | null>;
  block(hash: string): Promise<NodeBlock>;
  /** Hands a signed transaction to the network; its txid. Already known to the node: the same txid. */
  broadcast(rawHex: string): Promise<string>;
  /** Whether the node would accept it into its mempool, and why not; null when the node cannot tell (Dogecoin 1.14 has no testmempoolaccept). */
  mempoolAccept(rawHex: string): Promise<{ allowed: boolean; reason: string | null } | null>;
  /** The estimated fee rate in minor units per virtual byte to confirm within `blocks`, or null when the node has no estimate. */
  feeRate(blocks: number): Promise<bigint | null>;
  /** An unspent output as the node sees it (mempool included), or null when it is spent or never was. */
  txOut(txid: string, vout: number): Promise<{ amount: bigint; scriptHex: string; confirmations: number } | null>;
  /** The sum of the unspent outputs of these descriptors (scantxoutset), or null when the node cannot scan. */
  scanTotal(descriptors: { desc: string; range: number }[]): Promise<bigint | null>;
  /** The raw JSON-RPC call, for what only tests and tools need. */
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
}

export class NodeError extends Error {
  constructor(
    message: string,
    readonly code: number | null = null,
  ) {
    super(message);
  }
}

const DECIMALS = 8;
const amountOf = (value: unknown): bigint => {
  const minor = decimalToMinor(String(value), DECIMALS);
  if (minor === null) throw new NodeError(`node: not an amount: ${String(value)}`);
  return minor;
};

/** `chain` of getblockchaininfo in each coin's words. */
const NETWORKS: Record<string, ChainNetwork> = {
  main: 'mainnet',
  test: 'testnet',
  testnet4: 'testnet',
  regtest: 'regtest',
};

type RawVout = { value: unknown; n: unknown; scriptPubKey?: { address?: string; addresses?: string[] } };
type RawTx = { txid: string; vin: { txid?: string; vout?: unknown; coinbase?: string }[]; vout: RawVout[] };

/** The address of an output in Muntly's canonical form, from either field; null for scripts without one address. */
export function outputAddress(currency: NodeCurrency, scriptPubKey: RawVout['scriptPubKey']): string | null {
  const candidates = scriptPubKey?.address ? [scriptPubKey.address] : (scriptPubKey?.addresses ?? []);
  if (candidates.length !== 1) return null;
  return normalizeAddress(currency, candidates[0]!);
}

export function parseTx(currency: NodeCurrency, raw: RawTx): NodeTx {
  return {
    txid: raw.txid,
    inputs: raw.vin
      .filter((input) => input.txid !== undefined)
      .map((input) => ({ txid: input.txid!, vout: Number(input.vout) })),
    outputs: raw.vout.map((output) => ({
      vout: Number(output.n),
      amount: amountOf(output.value),
      address: outputAddress(currency, output.scriptPubKey),
    })),
  };
}

/** The fields a node writes amounts in (coins, 8 decimals): kept as the text the node wrote. */
// A bare number as the whole result is an amount too (getreceivedbyaddress, Dogecoin's estimatefee).
const AMOUNT_FIELDS = /"(value|feerate|total_amount|fee|amount|result)":(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/g;

/**
 * The node's JSON with every amount kept as the decimal text the node wrote, never a float (a
 * float writes 0.00000010 back as 1e-7): the amount fields are quoted, then the native parser
 * reads it all, fast enough for full blocks. Other decimals (difficulty, verification progress)
 * are no money and stay numbers.
 */
export function parseAmountsAsText(text: string): unknown {
  return JSON.parse(text.replace(AMOUNT_FIELDS, '"$1":"$2"')) as unknown;
}

type Fetch = typeof globalThis.fetch;

/**
 * `url` is CHAIN_RPC_URL_<CUR>: http://user:password@host:port (the credentials go in a Basic
 * header, never in a log line).
 */
export function rpcNode(
  currency: NodeCurrency,
  url: string,
  options: { fetch?: Fetch; timeoutMs?: number } = {},
): CoinNode {
  const parsed = new URL(url);
  const auth = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`;
  parsed.username = '';
  parsed.password = '';
  const endpoint = parsed.toString();
  const doFetch = options.fetch ?? globalThis.fetch;
  let id = 0;
  let verbosity2 = true;
  // A node runs one scantxoutset at a time ("Scan already in progress"): this process's scans queue.
  let scanning: Promise<unknown> = Promise.resolve();

  async function call<T = unknown>(
    method: string,
    params: unknown[] = [],
    timeoutMs = options.timeoutMs ?? 30_000,
  ): Promise<T> {
    const response = await doFetch(endpoint, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '1.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (response.status === 401 || response.status === 403)
      throw new NodeError(`${currency} node refused the credentials (HTTP ${response.status})`);
    let body: { result?: unknown; error?: { code: number; message: string } | null };
    try {
      body = parseAmountsAsText(text) as typeof body;
    } catch {
      throw new NodeError(`${currency} node answered HTTP ${response.status} without JSON`);
    }
    if (body.error) throw new NodeError(`${currency} node: ${body.error.message}`, Number(body.error.code));
    return body.result as T;
  }

  return {
    currency,
    call,
    async network() {
      const info = await call<{ chain: string }>('getblockchaininfo');
      const network = NETWORKS[info.chain];
      if (!network) throw new NodeError(`${currency} node is on an unknown chain "${info.chain}"`);
      return network;
    },
    async tip() {
      const info = await call<{ blocks: unknown; bestblockhash: string }>('getblockchaininfo');
      return { height: Number(info.blocks), hash: info.bestblockhash };
    },
    async blockHash(height) {
      try {
        return await call<string>('getblockhash', [height]);
      } catch (error) {
        // -8: "Block height out of range"
        if (error instanceof NodeError && error.code === -8) return null;
        throw error;
      }
    },
    async block(hash) {
      type RawBlock = { hash: string; height: unknown; previousblockhash?: string; tx: (RawTx | string)[] };
      let raw: RawBlock | null = null;
      if (verbosity2) {
        try {
          raw = await call<RawBlock>('getblock', [hash, 2]);
        } catch (error) {
          // Dogecoin 1.14 takes a boolean only ("JSON value is not a boolean as expected").
          if (!(error instanceof NodeError) || error.code !== -1) throw error;
          verbosity2 = false;
        }
      }
      raw ??= await call<RawBlock>('getblock', [hash, true]);
      const txs: NodeTx[] = [];
      for (const tx of raw.tx)
        txs.push(parseTx(currency, typeof tx === 'string' ? await call<RawTx>('getrawtransaction', [tx, true]) : tx));
      return { height: Number(raw.height), hash: raw.hash, previousHash: raw.previousblockhash ?? null, txs };
    },
    async broadcast(rawHex) {
      return call<string>('sendrawtransaction', [rawHex]);
    },
    async mempoolAccept(rawHex) {
      try {
        const [answer] = await call<{ allowed: boolean; 'reject-reason'?: string }[]>('testmempoolaccept', [[rawHex]]);
        return { allowed: Boolean(answer?.allowed), reason: answer?.['reject-reason'] ?? null };
      } catch (error) {
        if (error instanceof NodeError && error.code === -32601) return null;
        throw error;
      }
    },
    async feeRate(blocks) {
      try {
        const estimate = await call<{ feerate?: unknown }>('estimatesmartfee', [blocks]);
        if (estimate.feerate === undefined) return null;
        // Coins per kilo-(virtual)byte → minor units per byte, rounded up.
        const perKb = amountOf(estimate.feerate);
        return (perKb + 999n) / 1000n;
      } catch (error) {
        // Dogecoin 1.14 has estimatefee only; BCHN answers estimatefee too.
        if (error instanceof NodeError && error.code === -32601) {
          const perKb = await call<unknown>('estimatefee', [blocks]);
          const minor = amountOf(perKb);
          return minor > 0n ? (minor + 999n) / 1000n : null;
        }
        throw error;
      }
    },
    async txOut(txid, vout) {
      const out = await call<{ value: unknown; confirmations: unknown; scriptPubKey: { hex: string } } | null>(
        'gettxout',
        [txid, vout, true],
      );
      return out
        ? { amount: amountOf(out.value), scriptHex: out.scriptPubKey.hex, confirmations: Number(out.confirmations) }
        : null;
    },
    async scanTotal(descriptors) {
      const scan = async () => {
        try {
          // On mainnet the scan of the whole UTXO set takes minutes.
          const answer = await call<{ success: boolean; total_amount: unknown }>(
            'scantxoutset',
            ['start', descriptors.map(({ desc, range }) => ({ desc, range }))],
            15 * 60_000,
          );
          return answer.success ? amountOf(answer.total_amount) : null;
        } catch (error) {
          if (error instanceof NodeError && error.code === -32601) return null;
          throw error;
        }
      };
      const result = scanning.then(scan, scan);
      scanning = result.catch(() => undefined);
      return result;
    },
  };
}
