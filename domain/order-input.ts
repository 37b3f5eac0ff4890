import type { OrderType } from './fees';

/**
 * An order's input rules, written once: the order form checks them as the customer types
 * (src/features/exchange/order-schema.ts, which names each problem in the page's language), and
 * the API checks them again when the order arrives (`quote` in quotes.ts refuses what they refuse,
 * as `invalid_pair` and `invalid_amount`).
 */

/** The amount's longest whole part: 15 digits (a quadrillion units), more than any order. */
const AMOUNT = /^(\d{1,15})(?:\.(\d+))?$/;

/**
 * What is wrong with an amount (already in the API's form: digits and a decimal point, see
 * `normalizeAmountInput`), or null: positive, at most 15 whole digits, at most `decimals` after the point.
 */
export function amountProblem(
  value: string,
  decimals: number,
): 'required' | 'invalid_amount' | 'too_many_decimals' | null {
  if (!value) return 'required';
  const match = AMOUNT.exec(value);
  if (!match || /^0*(\.0*)?$/.test(value)) return 'invalid_amount';
  if ((match[2]?.length ?? 0) > decimals) return 'too_many_decimals';
  return null;
}

/** Whether an order of this type may go from one currency to the other: a buy pays euros for crypto, a sell the reverse, a swap crypto for another. */
export function pairProblem(type: OrderType, from: string, to: string): 'same_currency' | 'invalid_pair' | null {
  if (type === 'swap' && from === to) return 'same_currency';
  const ok =
    type === 'buy'
      ? from === 'EUR' && to !== 'EUR'
      : type === 'sell'
        ? from !== 'EUR' && to === 'EUR'
        : from !== 'EUR' && to !== 'EUR';
  return ok ? null : 'invalid_pair';
}

/** Where the result goes outside Muntly: a crypto address (buy, swap) or an IBAN (sell). */
export const deliveryKind = (type: OrderType): 'crypto' | 'iban' => (type === 'sell' ? 'iban' : 'crypto');
