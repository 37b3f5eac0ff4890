import Big from 'big.js';
import { CURRENCIES } from '../currencies';
import { FEES, networkFeeMinor } from '../fees';
import { minorToDecimal } from '../money';
import { amountProblem, pairProblem } from '../order-input';
import type { QuoteInput, QuoteProblem } from '../quotes';

/**
 * The quote as it was before it answered in minor units (commit 0fac64f's domain/quotes.ts, big.js
 * arithmetic, decimal strings), kept unchanged as the reference the property tests hold the
 * integer quote to: the same answers, and no line rounding differently.
 */
export type DecimalQuote = {
  rate: string;
  fee: string;
  feeCurrency: 'EUR';
  networkFee: string;
  networkFeeCurrency: string;
  amountConverted: string;
  amountEur: string;
};

/** That version's lookup: undefined for a code it does not know (the quote then refused the pair). */
const decimalsBefore = (code: string): number | undefined =>
  code === 'EUR' ? 2 : CURRENCIES.find((c) => c.code === code)?.decimals;

/**
 * Division that cuts instead of rounding: big.js divides to Big.DP places rounding half up, which
 * at the last place can lift a result onto the next minor unit (found by the property test). Cut
 * at 40 places and then to the currency's decimals, a quotient equals the exact one cut once.
 */
const Floor = Big();
Floor.DP = 40;
Floor.RM = Big.roundDown;

/** Rates are stated to 10 significant digits. */
const RATE_SIGNIFICANT_DIGITS = 10;

/**
 * A rate as a plain decimal with its significant digits, never in exponent notation (big.js's
 * toPrecision writes 1/1,000,001 as "9.999990000e-7"): 0.0000009999990000.
 */
const plainDecimal = (value: Big) => value.toFixed(Math.max(0, RATE_SIGNIFICANT_DIGITS - 1 - value.e));

const eurRate = (rates: Record<string, string>, code: string) =>
  code === 'EUR' ? new Big(1) : rates[code] ? new Big(rates[code]!) : null;

export function quoteBefore(input: QuoteInput): DecimalQuote | QuoteProblem {
  const { type, currencyFrom: from, currencyTo: to } = input;
  const fromDecimals = decimalsBefore(from);
  const toDecimals = decimalsBefore(to);
  // The order form's rules (order-input.ts), which the form names in more detail.
  if (pairProblem(type, from, to) || fromDecimals === undefined || toDecimals === undefined) return 'invalid_pair';
  if (amountProblem(input.amount, fromDecimals)) return 'invalid_amount';
  const amount = new Big(input.amount);
  const fromRate = eurRate(input.rates, from);
  const toRate = eurRate(input.rates, to);
  if (!fromRate || !toRate || fromRate.lte(0) || toRate.lte(0)) return 'rate_unavailable';

  // Every line is computed from the lines shown before it, so a customer can check the quote on
  // paper (domain/__tests__/quotes.test.ts re-does it in integer arithmetic):
  //   value in EUR  = amount × EUR rate of currencyFrom, to the cent, half up (a buy: the amount)
  //   fee           = value × fee rate, to the cent, half up; at least the minimum
  //   sell: paid    = value − fee
  //   buy:  receive = (value − fee) × rate, cut to the currency's decimals, − network fee
  //   swap: receive = amount × rate × (value − fee) / value, cut likewise, − network fee
  const rate = new Big(fromRate.div(toRate).toPrecision(RATE_SIGNIFICANT_DIGITS));
  const amountEur = from === 'EUR' ? amount : amount.times(fromRate).round(2, Big.roundHalfUp);
  const rule = FEES[type];
  const minimum = new Big(minorToDecimal(rule.minimumEurMinor, 2));
  let fee = amountEur.times(rule.basisPoints).div(10_000).round(2, Big.roundHalfUp);
  if (fee.lt(minimum)) fee = minimum;
  const netEur = amountEur.minus(fee);
  // Only a minimum fee can take all of the value (a percentage never does): then say so.
  if (rule.minimumEurMinor > 0n && netEur.lte(0)) return 'amount_below_minimum_fee';
  const networkFeeCharged = to === 'EUR' || input.toMuntlyWallet ? 0n : (networkFeeMinor(to) ?? 0n);
  const networkFee = new Big(minorToDecimal(networkFeeCharged, toDecimals));
  // A value that rounds to 0.00 EUR converts to nothing (and cannot be divided by).
  const gross = netEur.lte(0)
    ? new Big(0)
    : type === 'sell'
      ? netEur
      : type === 'buy'
        ? netEur.times(rate)
        : new Floor(amount.times(rate).times(netEur)).div(amountEur);
  const converted = gross.round(toDecimals, Big.roundDown).minus(networkFee);
  if (converted.lte(0)) return 'network_fee_exceeds_amount';
  return {
    rate: plainDecimal(rate),
    fee: fee.toFixed(2),
    feeCurrency: 'EUR',
    networkFee: networkFee.toFixed(toDecimals),
    networkFeeCurrency: to,
    amountConverted: converted.toFixed(toDecimals),
    amountEur: amountEur.toFixed(2),
  };
}
