import { EUR_DECIMALS, exactMinor } from './money';

/**
 * The 24 listed currencies (docs/decisions/0005) with their decimals (docs/decisions/0002).
 * `full`: receive and send to external wallets; `partial`: kept in the Muntly wallet only.
 */
export type Support = 'full' | 'partial';
export type Currency = {
  code: string;
  name: string;
  decimals: 6 | 8 | 9 | 18;
  support: Support;
  /** A realistic EUR price the simulated rate feed moves around (decimal string). */
  referenceEur: string;
};

export const CURRENCIES: readonly Currency[] = [
  { code: 'BTC', name: 'Bitcoin', decimals: 8, support: 'full', referenceEur: '80000' },
  { code: 'ETH', name: 'Ethereum', decimals: 18, support: 'full', referenceEur: '3000' },
  { code: 'XRP', name: 'Ripple', decimals: 6, support: 'full', referenceEur: '2.10' },
  { code: 'USDT', name: 'Tether', decimals: 6, support: 'partial', referenceEur: '0.92' },
  { code: 'BCH', name: 'Bitcoin Cash', decimals: 8, support: 'full', referenceEur: '420' },
  { code: 'LTC', name: 'Litecoin', decimals: 8, support: 'full', referenceEur: '90' },
  { code: 'DOGE', name: 'Dogecoin', decimals: 8, support: 'full', referenceEur: '0.19' },
  { code: 'BAT', name: 'Basic Attention Token', decimals: 9, support: 'partial', referenceEur: '0.24' },
  { code: 'ADA', name: 'Cardano', decimals: 6, support: 'partial', referenceEur: '0.62' },
  { code: 'SOL', name: 'Solana', decimals: 9, support: 'partial', referenceEur: '150' },
  { code: 'DOT', name: 'Polkadot', decimals: 9, support: 'partial', referenceEur: '5.20' },
  { code: 'USDC', name: 'USD Coin', decimals: 6, support: 'partial', referenceEur: '0.92' },
  { code: 'UNI', name: 'Uniswap', decimals: 9, support: 'partial', referenceEur: '8.40' },
  { code: 'LINK', name: 'Chainlink', decimals: 9, support: 'partial', referenceEur: '15.50' },
  { code: 'ALGO', name: 'Algorand', decimals: 6, support: 'partial', referenceEur: '0.21' },
  { code: 'WBTC', name: 'Wrapped Bitcoin', decimals: 8, support: 'partial', referenceEur: '79900' },
  { code: 'MATIC', name: 'Polygon', decimals: 9, support: 'partial', referenceEur: '0.41' },
  { code: 'XLM', name: 'Stellar', decimals: 6, support: 'partial', referenceEur: '0.30' },
  { code: 'ATOM', name: 'Cosmos', decimals: 6, support: 'partial', referenceEur: '6.10' },
  { code: 'FIL', name: 'Filecoin', decimals: 9, support: 'partial', referenceEur: '4.20' },
  { code: 'AXS', name: 'Axie Infinity', decimals: 9, support: 'partial', referenceEur: '5.30' },
  { code: 'BNB', name: 'Binance Coin', decimals: 9, support: 'partial', referenceEur: '610' },
  { code: 'SHIB', name: 'Shiba Inu', decimals: 9, support: 'partial', referenceEur: '0.000021' },
  // VeChain is listed but appears in neither support list (docs/decisions/0005); it is kept partial.
  { code: 'VET', name: 'VeChain', decimals: 9, support: 'partial', referenceEur: '0.031' },
];

/**
 * Partially supported currencies cannot leave Muntly or arrive from outside yet, so an order in
 * them must use the Muntly wallet ('Send to my wallet' / 'Use my wallet').
 */
export const isOwnWalletOnly = (currency: Currency): boolean => currency.support === 'partial';

export const currencyByCode = (code: string): Currency | undefined => CURRENCIES.find((c) => c.code === code);

/** The decimals of a currency's minor unit, EUR (cents) included; undefined for an unknown code. */
export const decimalsOf = (code: string): number | undefined =>
  code === 'EUR' ? EUR_DECIMALS : currencyByCode(code)?.decimals;

/**
 * The decimals of a currency the code already knows (a stored row's, a checked request's): the
 * one lookup the server makes of a minor unit. An unknown code here is a bug, not input: it throws.
 */
export function knownDecimals(code: string): number {
  const decimals = decimalsOf(code);
  if (decimals === undefined) throw new Error(`Unknown currency ${code}`);
  return decimals;
}

/** A decimal string (a quote's, an order's) in the minor units of `code`; throws on more decimals than the currency has. */
export const exactMinorIn = (value: string, code: string): bigint => exactMinor(value, knownDecimals(code));
