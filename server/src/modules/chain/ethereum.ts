import { keccak_256 } from '@noble/hashes/sha3.js';
import { normalizeAddress } from '#domain/addresses';
import { NodeError, type CoinNode, type NodeBlock, type NodeOutput, type NodeTx } from './rpc';
import type { ChainNetwork } from '#domain/networks';

/**
 * An Ethereum node over JSON-RPC (issue 31: geth, reth, Nethermind, Erigon, anvil), presented to the
 * deposit watcher as the Bitcoin family's `CoinNode`, so ether reuses its cursor of block hashes,
 * reorg roll-back, confirmations and unmatched queue. An account chain has no outputs; what the
 * watcher needs of one is each transfer of value to an address, so:
 * - every successful transaction's value to `to` is output 0 of its hash (txid:0);
 * - value moved by a contract (an internal transfer: a CALL with value, a contract created with
 *   value, a self-destruct) is found in the node's call traces (`debug_traceBlockByHash` with the
 *   callTracer, which geth, reth, Erigon, Nethermind and anvil answer) and numbered 1, 2, … in the
 *   order the trace visits them; a call that reverted moved nothing, nor did anything under it;
 * - a transaction whose receipt has status 0 moved no value at all: it has no outputs (never credited);
 * - each transaction carries its sender and the fee it paid (gas used × effective gas price), so
 *   the watcher can tell the house's own transactions (sweeps, gas funding, payouts) and book their gas.
 * A node without traces is found out once (the method does not exist) and said once through `warn`:
 * internal transfers then go unseen by the watcher, and only the reconciliation (the balances of
 * the house's addresses against the ledger) shows them (docs/chains.md, "Ether against anvil").
 * Every quantity is read from its hex text with BigInt, never through a float.
 */
export const ETH_CHAIN_IDS: Record<string, ChainNetwork> = {
  '1': 'mainnet',
  '11155111': 'testnet',
  '17000': 'testnet',
  '560048': 'testnet',
  '31337': 'regtest',
  '1337': 'regtest',
};

export type EthTx = NodeTx & { from: string; to: string | null; fee: bigint; failed: boolean };
export type EthNode = CoinNode & {
  /** The balance of an address at a block (a height; default the latest). */
  balance(address: string, height?: number): Promise<bigint>;
  /** Whether the node offers traces (null until the first block was read). */
  readonly traces: boolean | null;
  /** The next block's base fee (eth_feeHistory) and the tip the node suggests (eth_maxPriorityFeePerGas), wei per gas. */
  fees(): Promise<{ baseFee: bigint; priorityFee: bigint }>;
};

/** EIP-1559 fees for a transaction to be mined through a few blocks of rising base fees: twice the next base fee plus the tip (as geth's and ethers' wallets do), within a cap. */
export function eip1559Fees(
  fees: { baseFee: bigint; priorityFee: bigint },
  capWei: bigint,
): { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint } {
  const maxPriorityFeePerGas = fees.priorityFee > capWei ? capWei : fees.priorityFee;
  const wanted = fees.baseFee * 2n + maxPriorityFeePerGas;
  return { maxFeePerGas: wanted > capWei ? capWei : wanted, maxPriorityFeePerGas };
}

const quantity = (hex: unknown): bigint => {
  if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]*$/.test(hex))
    throw new NodeError(`ETH node: not a quantity: ${String(hex)}`);
  return hex === '0x' ? 0n : BigInt(hex);
};
const toHex = (value: bigint | number) => `0x${value.toString(16)}`;

type RawTx = { hash: string; from: string; to: string | null; value: string };
type RawReceipt = {
  transactionHash: string;
  status?: string;
  gasUsed: string;
  effectiveGasPrice?: string;
  contractAddress?: string | null;
};
type RawBlock = { hash: string; number: string; parentHash: string; transactions: RawTx[]; baseFeePerGas?: string };
type CallFrame = { type: string; from: string; to?: string; value?: string; error?: string; calls?: CallFrame[] };

/** The value a call frame's children moved (the frame itself is the transaction, or was counted by its parent). */
function internalTransfers(frame: CallFrame, into: { to: string; value: bigint }[]): void {
  for (const call of frame.calls ?? []) {
    // A reverted call moved nothing, nor did any call under it.
    if (call.error) continue;
    const value = call.value ? quantity(call.value) : 0n;
    // DELEGATECALL and STATICCALL carry no value of their own (the callTracer may repeat the caller's).
    const moves =
      call.type === 'CALL' || call.type === 'CREATE' || call.type === 'CREATE2' || call.type === 'SELFDESTRUCT';
    if (moves && value > 0n && call.to) into.push({ to: call.to, value });
    internalTransfers(call, into);
  }
}

export function ethNode(
  url: string,
  options: { fetch?: typeof globalThis.fetch; timeoutMs?: number; warn?: (message: string) => void } = {},
): EthNode {
  const parsed = new URL(url);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (parsed.username)
    headers.authorization = `Basic ${Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString('base64')}`;
  parsed.username = '';
  parsed.password = '';
  const endpoint = parsed.toString();
  const doFetch = options.fetch ?? globalThis.fetch;
  const warn = options.warn ?? ((message: string) => console.warn(message));
  let id = 0;
  let traces: boolean | null = null;

  async function call<T = unknown>(method: string, params: unknown[] = []): Promise<T> {
    const response = await doFetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    if (response.status === 401 || response.status === 403)
      throw new NodeError(`ETH node refused the credentials (HTTP ${response.status})`);
    let body: { result?: unknown; error?: { code: number; message: string } | null };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new NodeError(`ETH node answered HTTP ${response.status} without JSON`);
    }
    if (body.error) throw new NodeError(`ETH node: ${body.error.message}`, Number(body.error.code));
    return body.result as T;
  }

  async function blockTraces(hash: string): Promise<Map<string, CallFrame> | null> {
    if (traces === false) return null;
    try {
      const answer = await call<{ txHash?: string; result: CallFrame }[]>('debug_traceBlockByHash', [
        hash,
        { tracer: 'callTracer' },
      ]);
      traces = true;
      return new Map(answer.filter((t) => t.txHash).map((t) => [t.txHash!.toLowerCase(), t.result]));
    } catch (error) {
      // -32601: no such method (a node without the debug namespace, most public providers).
      if (
        error instanceof NodeError &&
        (error.code === -32601 || /not (found|available|supported)|does not exist/i.test(error.message))
      ) {
        traces = false;
        warn(
          'ETH node offers no call traces (debug_traceBlockByHash): ether moved to deposit addresses by contracts is not seen by the watcher; the reconciliation shows it',
        );
        return null;
      }
      throw error;
    }
  }

  let blockReceiptsMethod = true;
  /** eth_getBlockReceipts (geth ≥ 1.13, reth, Erigon, Nethermind, anvil), or one receipt per transaction where the node lacks it. */
  async function blockReceipts(hash: string, txs: RawTx[]): Promise<RawReceipt[]> {
    if (blockReceiptsMethod) {
      try {
        return await call<RawReceipt[]>('eth_getBlockReceipts', [hash]);
      } catch (error) {
        if (!(error instanceof NodeError) || error.code !== -32601) throw error;
        blockReceiptsMethod = false;
      }
    }
    return Promise.all(txs.map((tx) => call<RawReceipt>('eth_getTransactionReceipt', [tx.hash])));
  }

  const address = (value: string) => normalizeAddress('ETH', value);

  const node: EthNode = {
    currency: 'ETH',
    call,
    get traces() {
      return traces;
    },
    async network() {
      const chainId = quantity(await call<string>('eth_chainId')).toString();
      const network = ETH_CHAIN_IDS[chainId];
      if (!network) throw new NodeError(`ETH node is on an unknown chain (chainId ${chainId})`);
      return network;
    },
    async tip() {
      const block = await call<RawBlock>('eth_getBlockByNumber', ['latest', false]);
      return { height: Number(quantity(block.number)), hash: block.hash };
    },
    async blockHash(height) {
      const block = await call<RawBlock | null>('eth_getBlockByNumber', [toHex(height), false]);
      return block?.hash ?? null;
    },
    async block(hash): Promise<NodeBlock> {
      const raw = await call<RawBlock | null>('eth_getBlockByHash', [hash, true]);
      if (!raw) throw new NodeError(`ETH node: no block ${hash}`);
      const receipts = raw.transactions.length > 0 ? await blockReceipts(hash, raw.transactions) : [];
      const byHash = new Map(receipts.map((r) => [r.transactionHash.toLowerCase(), r]));
      const frames = raw.transactions.length > 0 ? await blockTraces(hash) : null;
      const txs: EthTx[] = raw.transactions.map((tx) => {
        const receipt = byHash.get(tx.hash.toLowerCase());
        if (!receipt) throw new NodeError(`ETH node: no receipt for ${tx.hash}`);
        const failed = receipt.status !== undefined && quantity(receipt.status) === 0n;
        const fee = quantity(receipt.gasUsed) * quantity(receipt.effectiveGasPrice ?? '0x0');
        const outputs: NodeOutput[] = [];
        if (!failed) {
          const to = tx.to ?? receipt.contractAddress ?? null;
          outputs.push({ vout: 0, amount: quantity(tx.value), address: to ? address(to) : null });
          const moved: { to: string; value: bigint }[] = [];
          const frame = frames?.get(tx.hash.toLowerCase());
          if (frame) internalTransfers(frame, moved);
          moved.forEach((m, i) => outputs.push({ vout: i + 1, amount: m.value, address: address(m.to) }));
        }
        const to = tx.to ?? receipt.contractAddress ?? null;
        return {
          txid: tx.hash,
          inputs: [],
          outputs,
          from: address(tx.from)!,
          to: to ? address(to) : null,
          fee,
          failed,
        };
      });
      return {
        height: Number(quantity(raw.number)),
        hash: raw.hash,
        previousHash: quantity(raw.number) === 0n ? null : raw.parentHash,
        txs,
      };
    },
    async broadcast(rawHex) {
      const raw = rawHex.startsWith('0x') ? rawHex : `0x${rawHex}`;
      const txid = `0x${Buffer.from(keccak_256(Buffer.from(raw.slice(2), 'hex'))).toString('hex')}`;
      try {
        return await call<string>('eth_sendRawTransaction', [raw]);
      } catch (error) {
        // Sent before (a restart, a second report): the node already has it, or mined it.
        if (
          error instanceof NodeError &&
          /already known|known transaction|already imported|nonce too low/i.test(error.message)
        ) {
          const known = await call<unknown>('eth_getTransactionByHash', [txid]).catch(() => null);
          if (known) return txid;
        }
        throw error;
      }
    },
    mempoolAccept: async () => null,
    // The Bitcoin family's fee rate per byte means nothing here: ether's fees are read by the signer (eth_feeHistory).
    feeRate: async () => null,
    txOut: async () => null,
    scanTotal: async () => null,
    async fees() {
      const history = await call<{ baseFeePerGas: string[] }>('eth_feeHistory', [1, 'latest', []]);
      // The last entry is the next block's base fee.
      const baseFee = quantity(history.baseFeePerGas[history.baseFeePerGas.length - 1]);
      const priorityFee = await call<string>('eth_maxPriorityFeePerGas').then(quantity, () => 1_000_000_000n);
      return { baseFee, priorityFee };
    },
    async balance(of, height) {
      return quantity(await call<string>('eth_getBalance', [of, height === undefined ? 'latest' : toHex(height)]));
    },
  };
  return node;
}

/** Whether a node is an Ethereum node (its CoinNode has balances). */
export const isEthNode = (node: CoinNode): node is EthNode => node.currency === 'ETH' && 'balance' in node;
