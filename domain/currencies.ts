/**
 * The 24 listed currencies (spec section 1) with their decimals (DESIGN.md section 6).
 * `full`: receive and send to external wallets; `partial`: kept in the Muntly wallet only.
 */
export type Support = 'full' | 'partial';
export type Currency = { code: string; name: string; decimals: 6 | 8 | 9; support: Support };

export const CURRENCIES: readonly Currency[] = [
  { code: 'BTC', name: 'Bitcoin', decimals: 8, support: 'full' },
  { code: 'ETH', name: 'Ethereum', decimals: 9, support: 'full' },
  { code: 'XRP', name: 'Ripple', decimals: 6, support: 'full' },
  { code: 'USDT', name: 'Tether', decimals: 6, support: 'partial' },
  { code: 'BCH', name: 'Bitcoin Cash', decimals: 8, support: 'full' },
  { code: 'LTC', name: 'Litecoin', decimals: 8, support: 'full' },
  { code: 'DOGE', name: 'Dogecoin', decimals: 8, support: 'full' },
  { code: 'BAT', name: 'Basic Attention Token', decimals: 9, support: 'partial' },
  { code: 'ADA', name: 'Cardano', decimals: 6, support: 'partial' },
  { code: 'SOL', name: 'Solana', decimals: 9, support: 'partial' },
  { code: 'DOT', name: 'Polkadot', decimals: 9, support: 'partial' },
  { code: 'USDC', name: 'USD Coin', decimals: 6, support: 'partial' },
  { code: 'UNI', name: 'Uniswap', decimals: 9, support: 'partial' },
  { code: 'LINK', name: 'Chainlink', decimals: 9, support: 'partial' },
  { code: 'ALGO', name: 'Algorand', decimals: 6, support: 'partial' },
  { code: 'WBTC', name: 'Wrapped Bitcoin', decimals: 8, support: 'partial' },
  { code: 'MATIC', name: 'Polygon', decimals: 9, support: 'partial' },
  { code: 'XLM', name: 'Stellar', decimals: 6, support: 'partial' },
  { code: 'ATOM', name: 'Cosmos', decimals: 6, support: 'partial' },
  { code: 'FIL', name: 'Filecoin', decimals: 9, support: 'partial' },
  { code: 'AXS', name: 'Axie Infinity', decimals: 9, support: 'partial' },
  { code: 'BNB', name: 'Binance Coin', decimals: 9, support: 'partial' },
  { code: 'SHIB', name: 'Shiba Inu', decimals: 9, support: 'partial' },
  // VeChain is listed but appears in neither support list of the spec; it is kept partial.
  { code: 'VET', name: 'VeChain', decimals: 9, support: 'partial' },
];
