import { EUR_DECIMALS, exactMinor, minorToDecimal, type Money } from './money';

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

/** Whether a code is EUR or a listed currency: what a request's currency is checked against before its decimals are read. */
export const isCurrencyCode = (code: string): boolean => code === 'EUR' || currencyByCode(code) !== undefined;

/**
 * The decimals of a currency's minor unit, EUR (cents) included: the one lookup of a minor unit,
 * on the server and the site alike. An unknown code is a bug, not 0 decimals: it throws (input is
 * checked with `isCurrencyCode` first).
 */
export function knownDecimals(code: string): number {
  if (code === 'EUR') return EUR_DECIMALS;
  const currency = currencyByCode(code);
  if (!currency) throw new Error(`Unknown currency ${code}`);
  return currency.decimals;
}

/** A decimal string (a quote's, an order's) in the minor units of `code`; throws on more decimals than the currency has. */
export const exactMinorIn = (value: string, code: string): bigint => exactMinor(value, knownDecimals(code));

/** An amount with its currency as the wire and texts write it: 12345n EUR -> "123.45". */
export const moneyDecimal = (money: Money): string => minorToDecimal(money.minor, knownDecimals(money.currency));
