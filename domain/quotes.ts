import Big from 'big.js';
import { FEES, NETWORK_FEES_MINOR, type OrderType } from './fees';
import { currencyByCode } from './currencies';
import { minorToDecimal } from './money';

/**
 * The estimate shown before an order: rate, fee, network fee and amount converted. Estimates
 * only — the rate applied is the one at processing time (floating). `amount` is always in
 * `currencyFrom`. Fees: buy 1.50 % (at least 2.00 EUR), sell 1.50 %, swap 0.50 %, taken in EUR
 * value; the network fee of delivering crypto to an outside address is extra, and none is charged
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

export type Quote = {
  rate: string;
  fee: string;
  feeCurrency: 'EUR';
  networkFee: string;
  networkFeeCurrency: string;
  amountConverted: string;
  amountEur: string;
};

export type QuoteProblem = 'invalid_pair' | 'invalid_amount' | 'network_fee_exceeds_amount' | 'rate_unavailable';

const eurRate = (rates: Record<string, string>, code: string) => (code === 'EUR' ? new Big(1) : rates[code] ? new Big(rates[code]!) : null);
const decimalsOf = (code: string) => (code === 'EUR' ? 2 : currencyByCode(code)?.decimals);

export function quote(input: QuoteInput): Quote | QuoteProblem {
  const { type, currencyFrom: from, currencyTo: to } = input;
  const pairOk =
    (type === 'buy' && from === 'EUR' && to !== 'EUR') ||
    (type === 'sell' && from !== 'EUR' && to === 'EUR') ||
    (type === 'swap' && from !== 'EUR' && to !== 'EUR' && from !== to);
  const fromDecimals = decimalsOf(from);
  const toDecimals = decimalsOf(to);
  if (!pairOk || fromDecimals === undefined || toDecimals === undefined) return 'invalid_pair';
  if (!/^\d{1,15}(\.\d+)?$/.test(input.amount) || (input.amount.split('.')[1]?.length ?? 0) > fromDecimals) return 'invalid_amount';
  const amount = new Big(input.amount);
  if (amount.lte(0)) return 'invalid_amount';
  const fromRate = eurRate(input.rates, from);
  const toRate = eurRate(input.rates, to);
  if (!fromRate || !toRate || fromRate.lte(0) || toRate.lte(0)) return 'rate_unavailable';

  const amountEur = amount.times(fromRate);
  const rule = FEES[type];
  const minimum = new Big(minorToDecimal(rule.minimumEurMinor, 2));
  let fee = amountEur.times(rule.basisPoints).div(10_000);
  if (fee.lt(minimum)) fee = minimum;
  fee = fee.round(2, Big.roundUp);
  const netEur = amountEur.minus(fee);
  const networkFeeMinor = to === 'EUR' || input.toMuntlyWallet ? 0n : NETWORK_FEES_MINOR[to] ?? 0n;
  const networkFee = new Big(minorToDecimal(networkFeeMinor, toDecimals));
  const converted = netEur.div(toRate).minus(networkFee).round(toDecimals, Big.roundDown);
  if (converted.lte(0)) return 'network_fee_exceeds_amount';
  return {
    rate: fromRate.div(toRate).toPrecision(10),
    fee: fee.toFixed(2),
    feeCurrency: 'EUR',
    networkFee: networkFee.toFixed(toDecimals),
    networkFeeCurrency: to,
    amountConverted: converted.toFixed(toDecimals),
    amountEur: amountEur.round(2, Big.roundHalfEven).toFixed(2),
  };
}
