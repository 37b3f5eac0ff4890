import { isCurrencyCode, knownDecimals, moneyDecimal } from './currencies';
import { decimalDigits, eurValueMinor } from './eur-value';
import { FEES, networkFeeMinor, type OrderType } from './fees';
import { EUR_DECIMALS, exactMinor, minorToDecimal, type Money } from './money';
import { amountProblem, pairProblem } from './order-input';

/**
 * The estimate shown before an order: rate, fee, network fee and amount converted. Estimates
 * only — the rate applied is the one at processing time (floating). `amount` is always in
 * `currencyFrom`. Fees: buy 1.50 % (at least 2.00 EUR), sell 1.50 %, swap 0.50 %, taken in EUR
 * value and rounded to the cent, half up; the network fee of delivering crypto to an outside address is extra, and none is charged
 * when the crypto goes to the Muntly wallet.
 */
export type QuoteInput = {
  type: OrderType;
  currencyFrom: string;
  currencyTo: string;
  amount: string;
  /** EUR per unit, decimal strings, from the rate feed. */
  rates: Record<string, string>;
  toMuntlyWallet?: boolean;
};

/**
 * An estimate in minor units, each amount with its currency (docs/decisions/0022): `fee` and
 * `amountEur` in EUR, `networkFee` and `amountConverted` in `currencyTo`. The rate is a ratio, not
 * money: a decimal string of 10 significant digits, units of `currencyTo` per unit of `currencyFrom`.
 */
export type Quote = {
  rate: string;
  fee: Money;
  networkFee: Money;
  amountConverted: Money;
  amountEur: Money;
};

export type QuoteProblem =
  'invalid_pair' | 'invalid_amount' | 'amount_below_minimum_fee' | 'network_fee_exceeds_amount' | 'rate_unavailable';

/** Rates are stated to 10 significant digits. */
const RATE_SIGNIFICANT_DIGITS = 10;

/**
 * The places a rate's quotient is first taken to, half up, before its 10 significant digits are:
 * the two roundings big.js made (its division to Big.DP = 20 places, then toPrecision) when the
 * quote computed with it, kept so that no rate changes (the property test compares the two).
 */
const RATE_QUOTIENT_PLACES = 20;

/** A decimal ≥ 0 as digits × 10^-scale (the form `decimalDigits` reads). */
type Decimal = { digits: bigint; scale: number };

const pow10 = (n: number) => 10n ** BigInt(n);

/** a / b to the nearest integer, halves up (a ≥ 0, b > 0). */
const halfUp = (a: bigint, b: bigint) => (2n * a + b) / (2n * b);

/** ⌊numerator × 10^power / denominator⌋ (numerator ≥ 0, denominator > 0): a cut, never a rounding. */
const floorScaled = (numerator: bigint, denominator: bigint, power: number) =>
  power >= 0 ? (numerator * pow10(power)) / denominator : numerator / (denominator * pow10(-power));

/** EUR per unit; null when the feed has no rate. A rate that is no number is the feed's bug: it throws. */
function eurRate(rates: Record<string, string>, code: string): Decimal | null {
  if (code === 'EUR') return { digits: 1n, scale: 0 };
  const text = rates[code];
  if (!text) return null;
  const rate = decimalDigits(text);
  if (!rate) throw new Error(`${JSON.stringify(text)} is not a rate`);
  return rate;
}

/** fromRate / toRate: to 20 places half up, then to 10 significant digits half up. */
function rateOf(fromRate: Decimal, toRate: Decimal): Decimal {
  // fromRate / toRate × 10^20 = fromRate.digits × 10^power / toRate.digits.
  const power = toRate.scale - fromRate.scale + RATE_QUOTIENT_PLACES;
  const quotient =
    power >= 0
      ? halfUp(fromRate.digits * pow10(power), toRate.digits)
      : halfUp(fromRate.digits, toRate.digits * pow10(-power));
  const excess = quotient.toString().length - RATE_SIGNIFICANT_DIGITS;
  if (excess <= 0) return { digits: quotient, scale: RATE_QUOTIENT_PLACES };
  return { digits: halfUp(quotient, pow10(excess)), scale: RATE_QUOTIENT_PLACES - excess };
}

/**
 * A rate as a plain decimal with its significant digits, never in exponent notation: 1/1,000,001
 * is 0.0000009999990000 (its first digit's place and 9 more; zero is 0.000000000).
 */
function plainRate(rate: Decimal): string {
  const exponent = rate.digits === 0n ? 0 : rate.digits.toString().length - 1 - rate.scale;
  const places = Math.max(0, RATE_SIGNIFICANT_DIGITS - 1 - exponent);
  // Exact: the rate has no more places than these (a carry to 11 digits ends in a 0).
  return minorToDecimal(floorScaled(rate.digits, 1n, places - rate.scale), places);
}

/** The EUR value of an amount in cents (domain/eur-value.ts, for the site's send page). */
export { eurValueMinor } from './eur-value';

/**
 * The quote, in integer arithmetic on minor units (docs/decisions/0022): each line is the
 * rounding or the cut its rule names, and nothing else rounds.
 */
export function quote(input: QuoteInput): Quote | QuoteProblem {
  const { type, currencyFrom: from, currencyTo: to } = input;
  // The order form's rules (order-input.ts), which the form names in more detail.
  if (pairProblem(type, from, to) || !isCurrencyCode(from) || !isCurrencyCode(to)) return 'invalid_pair';
  const fromDecimals = knownDecimals(from);
  const toDecimals = knownDecimals(to);
  if (amountProblem(input.amount, fromDecimals)) return 'invalid_amount';
  const amount = exactMinor(input.amount, fromDecimals);
  const fromRate = eurRate(input.rates, from);
  const toRate = eurRate(input.rates, to);
  if (!fromRate || !toRate || fromRate.digits <= 0n || toRate.digits <= 0n) return 'rate_unavailable';

  // Every line is computed from the lines shown before it, so a customer can check the quote on
  // paper (domain/__tests__/quotes.test.ts re-does it with fractions, and with big.js):
  //   value in EUR  = amount × EUR rate of currencyFrom, to the cent, half up (a buy: the amount)
  //   fee           = value × fee rate, to the cent, half up; at least the minimum
  //   sell: paid    = value − fee
  //   buy:  receive = (value − fee) × rate, cut to the currency's decimals, − network fee
  //   swap: receive = amount × rate × (value − fee) / value, cut likewise, − network fee
  const rate = rateOf(fromRate, toRate);
  const amountEur = from === 'EUR' ? amount : eurValueMinor(amount, fromDecimals, input.rates[from]!);
  const rule = FEES[type];
  const percentFee = halfUp(amountEur * BigInt(rule.basisPoints), 10_000n);
  const fee = percentFee < rule.minimumEurMinor ? rule.minimumEurMinor : percentFee;
  const netEur = amountEur - fee;
  // Only a minimum fee can take all of the value (a percentage never does): then say so.
  if (rule.minimumEurMinor > 0n && netEur <= 0n) return 'amount_below_minimum_fee';
  const networkFee = to === 'EUR' || input.toMuntlyWallet ? 0n : (networkFeeMinor(to) ?? 0n);
  // A value that rounds to 0.00 EUR converts to nothing (and cannot be divided by).
  const gross =
    netEur <= 0n
      ? 0n
      : type === 'sell'
        ? netEur
        : type === 'buy'
          ? floorScaled(netEur * rate.digits, 1n, toDecimals - EUR_DECIMALS - rate.scale)
          : floorScaled(amount * rate.digits * netEur, amountEur, toDecimals - fromDecimals - rate.scale);
  const converted = gross - networkFee;
  if (converted <= 0n) return 'network_fee_exceeds_amount';
  return {
    rate: plainRate(rate),
    fee: { minor: fee, currency: 'EUR' },
    networkFee: { minor: networkFee, currency: to },
    amountConverted: { minor: converted, currency: to },
    amountEur: { minor: amountEur, currency: 'EUR' },
  };
}

/**
 * A quote as POST /api/quotes answers it (domain/contracts/rates.ts, unchanged): each amount a
 * decimal string of its currency, converted here once, at the edge.
 */
export function quoteDecimals(result: Quote) {
  return {
    rate: result.rate,
    fee: moneyDecimal(result.fee),
    feeCurrency: 'EUR' as const,
    networkFee: moneyDecimal(result.networkFee),
    networkFeeCurrency: result.networkFee.currency,
    amountConverted: moneyDecimal(result.amountConverted),
    amountEur: moneyDecimal(result.amountEur),
  };
}
