import type { OrderType } from './fees';

/**
 * The order as the site sends it and the API takes it, and the states it goes through: one
 * definition for the order form and the API.
 */
export type { OrderType };

export type OrderInput = {
  type: OrderType;
  currencyFrom: string;
  currencyTo: string;
  /** Always in currencyFrom, a decimal string. */
  amount: string;
  email: string;
  /** A crypto address (XRP address:tag), or for a sell the IBAN that receives the euros. */
  address?: string;
  paymentMethod?: 'sepa' | 'sepa_instant';
  sendToMyWallet?: boolean;
  useMyWallet?: boolean;
};

/** new: waiting for the money; processing: it arrived; then completed, with success or a refund. */
export type OrderStatus = 'new' | 'processing' | 'completed_success' | 'completed_failure';

/** Where the money of a failed order goes back to. */
export type Refund = 'bank' | 'wallet' | 'sender';
