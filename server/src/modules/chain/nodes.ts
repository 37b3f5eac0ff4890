import { DEFAULT_CONFIRMATIONS, NODE_CURRENCIES, type NodeCurrency } from '#domain/chain';
import { TEST_XPUBS, type Xpubs } from './derive';
import { ethNode } from './ethereum';
import { rpcNode, type CoinNode } from './rpc';
import { checkXrplNetwork, xrplNode, type XrplNode } from './xrpl-rpc';
import type { ChainNetwork } from '#domain/networks';
import type { Config } from '../../config';
import type { Chain } from './service';

type NodeConfig = Pick<Config, `CHAIN_RPC_URL_${NodeCurrency}` | `CONFIRMATIONS_${NodeCurrency}`>;

/** The currencies switched to a real node (CHAIN_RPC_URL_<CUR>), each with its node. */
export function chainNodes(config: NodeConfig): Map<NodeCurrency, CoinNode> {
  const nodes = new Map<NodeCurrency, CoinNode>();
  for (const code of NODE_CURRENCIES) {
    const url = config[`CHAIN_RPC_URL_${code}`];
    if (url) nodes.set(code, code === 'ETH' ? ethNode(url) : rpcNode(code, url));
  }
  return nodes;
}

export const confirmationsOf = (config: NodeConfig, code: NodeCurrency): number =>
  config[`CONFIRMATIONS_${code}`] ?? DEFAULT_CONFIRMATIONS[code];

/**
 * A node on another network than CHAIN_NETWORK would credit coins of no value, or send real ones
 * to addresses derived for a test chain: refused at start-up. A node that does not answer is only
 * reported (the watcher tries again; a restarting node must not stop the exchange).
 */
export async function checkNodeNetworks(
  nodes: Map<NodeCurrency, CoinNode>,
  expected: ChainNetwork,
  warn: (message: string) => void,
): Promise<void> {
  for (const [code, node] of nodes) {
    let network: ChainNetwork;
    try {
      network = await node.network();
    } catch (error) {
      warn(
        `${code} node at CHAIN_RPC_URL_${code} does not answer (${(error as Error).message}); the deposit watcher keeps trying`,
      );
      continue;
    }
    if (network !== expected)
      throw new Error(
        `CHAIN_RPC_URL_${code} is a ${network} node, but CHAIN_NETWORK is ${expected}: start a ${expected} node or set CHAIN_NETWORK=${network}`,
      );
  }
}

/** XPUB_BTC, XPUB_LTC, XPUB_DOGE, XPUB_BCH, XPUB_ETH and XRP_ADDRESS, or the public test keys. */
export function xpubsFrom(
  config: Pick<Config, 'XPUB_BTC' | 'XPUB_LTC' | 'XPUB_DOGE' | 'XPUB_BCH' | 'XPUB_ETH' | 'XRP_ADDRESS'>,
): Xpubs {
  return {
    BTC: config.XPUB_BTC ?? TEST_XPUBS.BTC,
    LTC: config.XPUB_LTC ?? TEST_XPUBS.LTC,
    DOGE: config.XPUB_DOGE ?? TEST_XPUBS.DOGE,
    BCH: config.XPUB_BCH ?? TEST_XPUBS.BCH,
    ETH: config.XPUB_ETH ?? TEST_XPUBS.ETH,
    XRP: config.XRP_ADDRESS ?? TEST_XPUBS.XRP,
  };
}

/**
 * The faucet's block source from Muntly's own Bitcoin node (CHAIN_RPC_URL_BTC): the blocks it mixes
 * into its draws come from the chain Muntly follows, on the network it follows, instead of from a
 * third party's explorer. Named `bitcoin` on mainnet, as the explorer is, and `bitcoin-<network>`
 * elsewhere, so a draw says which chain its block is on.
 */
export function nodeBlockSource(node: CoinNode, network: ChainNetwork): Chain {
  return {
    name: network === 'mainnet' ? 'bitcoin' : `bitcoin-${network}`,
    tip: () => node.tip(),
    async block(_db, height) {
      const hash = await node.blockHash(height);
      return hash ? { height, hash } : null;
    },
    balances: async () => null,
    received: async () => undefined,
  };
}

/** The XRP Ledger server (CHAIN_RPC_URL_XRP) and the house account it follows (XRP_ADDRESS, or the public test account). */
export type XrpChain = { node: XrplNode; house: string };

export function xrpChain(config: Pick<Config, 'CHAIN_RPC_URL_XRP' | 'XRP_ADDRESS'>): XrpChain | null {
  return config.CHAIN_RPC_URL_XRP
    ? { node: xrplNode(config.CHAIN_RPC_URL_XRP), house: config.XRP_ADDRESS ?? TEST_XPUBS.XRP }
    : null;
}

/**
 * As checkNodeNetworks: an XRP server of another network than CHAIN_NETWORK is refused at
 * start-up (xrpl-rpc.ts checkXrplNetwork), one that does not say its network is accepted with a
 * warning, one that does not answer is only reported.
 */
export async function checkXrpNetwork(
  xrp: XrpChain,
  expected: ChainNetwork,
  warn: (message: string) => void,
): Promise<void> {
  let networkId: number | null;
  try {
    networkId = (await xrp.node.state()).networkId;
  } catch (error) {
    warn(
      `the XRP server at CHAIN_RPC_URL_XRP does not answer (${(error as Error).message}); the deposit watcher keeps trying`,
    );
    return;
  }
  const check = checkXrplNetwork(networkId, expected);
  if (!check.ok) throw new Error(`${check.message}: use a server of ${expected} or set CHAIN_NETWORK accordingly`);
  if (check.warning) warn(check.warning);
}
