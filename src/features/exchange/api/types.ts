/**
 * What the exchange API answers: the contract's types (domain/contracts/orders.ts and rates.ts),
 * imported as types only. Amounts are decimal strings everywhere: they are formatted for display,
 * never turned into floats for arithmetic.
 */
import { isOpenOrder, type OrderStatus, type OrderType, type Refund } from '#domain/orders';
import type { Order, PaymentDetails, Receiving } from '#domain/contracts/orders';
import type { CurrencyInfo, QuoteResponse } from '#domain/contracts/rates';

export type { OrderStatus, OrderType, Order, PaymentDetails, Receiving, CurrencyInfo };
export type RefundTo = Refund;
export type Quote = QuoteResponse;

/** An order the page still follows live (domain/orders.ts). */
export const isOpen = isOpenOrder;
