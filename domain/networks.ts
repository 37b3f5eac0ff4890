/**
 * Which chain the Bitcoin-family addresses (BTC, LTC, DOGE, BCH) belong to: one setting for the
 * whole process, so that the addresses Muntly derives, accepts, shows and stores agree. A mainnet
 * address is invalid on testnet or regtest and the other way round.
 *
 * The site has no server configuration at hand: Gatsby inlines GATSBY_CHAIN_NETWORK when it
 * builds. The server calls setChainNetwork with CHAIN_NETWORK at start-up (server/src/config.ts).
 */
export const CHAIN_NETWORKS = ['mainnet', 'testnet', 'regtest'] as const;
export type ChainNetwork = (typeof CHAIN_NETWORKS)[number];

const isChainNetwork = (value: unknown): value is ChainNetwork => CHAIN_NETWORKS.includes(value as ChainNetwork);

// Written out in full: Gatsby replaces only the literal `process.env.GATSBY_…` expression.
const built = process.env.GATSBY_CHAIN_NETWORK;
let current: ChainNetwork = isChainNetwork(built) ? built : 'mainnet';

export function chainNetwork(): ChainNetwork {
  return current;
}

export function setChainNetwork(network: ChainNetwork): void {
  // A typo must not fall back to mainnet silently: that would accept and derive real-money addresses.
  if (!isChainNetwork(network))
    throw new Error(`Unknown chain network: ${String(network)} (${CHAIN_NETWORKS.join(', ')})`);
  current = network;
}

/** The parameters @scure/btc-signer's Address, p2pkh and p2wpkh take. */
export type BitcoinLikeNetwork = { bech32: string; pubKeyHash: number; scriptHash: number; wif: number };

/**
 * Dogecoin Core (1.14, the released line) defines no bech32_hrp on any network. btc-signer tries
 * bech32 only for a non-empty prefix, so with this one no string ever decodes as a DOGE segwit
 * address. ('doge', 'tdge', 'dcrt' exist only on Dogecoin's unreleased 1.21 branch.)
 */
const NO_BECH32 = '';

/**
 * The version bytes and bech32 prefixes of each coin's chainparams.cpp (base58Prefixes,
 * bech32_hrp):
 * - BTC: bitcoin/bitcoin src/kernel/chainparams.cpp (also btc-signer's NETWORK / TEST_NETWORK).
 * - LTC: litecoin-project/litecoin src/chainparams.cpp. P2SH is SCRIPT_ADDRESS2 (M… / Q…), the
 *   form Litecoin Core writes; the Bitcoin-style SCRIPT_ADDRESS (3… / 2…) is not accepted, as on
 *   mainnet before.
 * - DOGE: dogecoin/dogecoin src/chainparams.cpp, 1.14 branch. Regtest keeps Bitcoin's testnet
 *   pubkey and secret bytes, unlike Dogecoin's testnet.
 * - BCH: Bitcoin Cash Node / Bitcoin ABC src/chainparams.cpp: legacy addresses with BTC's bytes,
 *   cashaddrPrefix below.
 */
const PARAMS: Record<'BTC' | 'LTC' | 'DOGE', Record<ChainNetwork, BitcoinLikeNetwork>> = {
  BTC: {
    mainnet: { bech32: 'bc', pubKeyHash: 0x00, scriptHash: 0x05, wif: 0x80 },
    testnet: { bech32: 'tb', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
    regtest: { bech32: 'bcrt', pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  },
  LTC: {
    mainnet: { bech32: 'ltc', pubKeyHash: 0x30, scriptHash: 0x32, wif: 0xb0 },
    testnet: { bech32: 'tltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
    regtest: { bech32: 'rltc', pubKeyHash: 0x6f, scriptHash: 0x3a, wif: 0xef },
  },
  DOGE: {
    mainnet: { bech32: NO_BECH32, pubKeyHash: 0x1e, scriptHash: 0x16, wif: 0x9e },
    testnet: { bech32: NO_BECH32, pubKeyHash: 0x71, scriptHash: 0xc4, wif: 0xf1 },
    regtest: { bech32: NO_BECH32, pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef },
  },
};

export function bitcoinLikeNetwork(
  currency: 'BTC' | 'LTC' | 'DOGE',
  network: ChainNetwork = chainNetwork(),
): BitcoinLikeNetwork {
  return PARAMS[currency][network];
}

/** The cashaddr prefix of Bitcoin Cash on the network (cashaddrPrefix in chainparams.cpp). */
export function cashAddrPrefix(network: ChainNetwork = chainNetwork()): 'bitcoincash' | 'bchtest' | 'bchreg' {
  return network === 'mainnet' ? 'bitcoincash' : network === 'testnet' ? 'bchtest' : 'bchreg';
}
