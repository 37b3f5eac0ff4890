/**
 * What the exchange API answers: the contract's types (domain/contracts/orders.ts and rates.ts),
 * imported as types only. Amounts are decimal strings everywhere: they are formatted for display,
 * never turned into floats for arithmetic.
 */
import { isOpenOrder, type OrderStatus, type OrderType, type Refund } from '../../../../domain/orders';
import type { BankAccount, ExchangeConfig as ExchangeConfigResponse, Order, PaymentDetails, Receiving } from '../../../../domain/contracts/orders';
import type { CurrencyInfo, QuoteResponse } from '../../../../domain/contracts/rates';

export type { OrderStatus, OrderType, Order, PaymentDetails, Receiving, CurrencyInfo };
export type RefundTo = Refund;
export type Quote = QuoteResponse;

/** The exchange config, or (from an API without the endpoint) no bank account to show and no explorers to link to. */
export type ExchangeConfig = Omit<ExchangeConfigResponse, 'bank' | 'explorers'> & { bank: BankAccount | null; explorers?: Partial<Record<string, string>> };

/** An order the page still follows live (domain/orders.ts). */
export const isOpen = isOpenOrder;
