/**
 * What the exchange API answers (server/src/modules/orders and rates). Amounts are decimal
 * strings everywhere: they are formatted for display, never turned into floats for arithmetic.
 */
import type { OrderStatus, OrderType, Refund } from '../../../../domain/orders';
import type { Quote as Estimate } from '../../../../domain/quotes';

export type { OrderStatus, OrderType };
export type RefundTo = Refund;

export type CurrencyInfo = { code: string; name: string; decimals: number; support: 'full' | 'partial'; ownWalletOnly: boolean };

export type Quote = Estimate & { rateType: 'floating' };

export type PaymentDetails = {
  iban: string;
  bic: string;
  beneficiary: string;
  amount: string;
  reason: string;
  methods: string[];
  epcPayload: string;
};

export type Receiving = { currency: string; address: string; tag: string | null; amount: string };

export type Order = {
  reference: string;
  shortReference: string;
  type: OrderType | 'deposit';
  currencyFrom: string;
  currencyTo: string;
  amount: string;
  amountEur: string;
  address: string | null;
  rateType: 'floating';
  paymentMethod: 'sepa' | 'sepa_instant' | null;
  estimatedRate: string;
  estimatedAmountConverted: string;
  estimatedNetworkFee: string;
  fee: string;
  status: OrderStatus;
  date: string;
  sendToMyWallet: boolean;
  useMyWallet: boolean;
  paymentDetails: PaymentDetails | null;
  receiving?: Receiving | null;
  amountReceived?: string | null;
  actualRate?: string | null;
  actualAmountConverted?: string | null;
  actualNetworkFee?: string | null;
  actualFee?: string | null;
  payoutTxid?: string | null;
  failure?: { reason: string; refund: RefundTo } | null;
  completedAt?: string | null;
  /** Present on the owner's own list when the API sends it (needed for live updates). */
  email?: string;
};

export type ExchangeConfig = { buySellEnabled: boolean; bank: { iban: string; bic: string; beneficiary: string } | null };

export const isOpen = (status: OrderStatus) => status === 'new' || status === 'processing';
