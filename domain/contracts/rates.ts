import { z } from 'zod';
import { PLACED_ORDER_TYPES } from '../orders';

/**
 * The listed currencies, floating EUR rates and estimates: GET /api/currencies, GET /api/rates,
 * GET /api/rates/history, POST /api/quotes. Amounts and rates are decimal strings.
 */
export const currencyInfoSchema = z.object({
  code: z.string(),
  name: z.string(),
  decimals: z.number(),
  support: z.enum(['full', 'partial']),
  ownWalletOnly: z.boolean(),
});
export type CurrencyInfo = z.infer<typeof currencyInfoSchema>;
export const currenciesResponse = z.object({ currencies: z.array(currencyInfoSchema) });
export type CurrenciesResponse = z.infer<typeof currenciesResponse>;

export const ratesResponse = z.object({
  at: z.string(),
  rates: z.record(z.string(), z.string()),
  sample: z
    .boolean()
    .optional()
    .describe("Local mode's simulated rates, not a market's: the pages mark them as sample data"),
});
export type Rates = z.infer<typeof ratesResponse>;

export const rateHistoryQuery = z.object({
  currency: z.string().max(10),
  days: z.coerce.number().int().min(1).max(365).default(30),
});
export type RateHistoryQuery = z.input<typeof rateHistoryQuery>;
export const rateHistoryResponse = z.object({
  currency: z.string(),
  points: z.array(z.object({ time: z.string(), rate: z.string() })),
  sample: z.boolean().optional().describe("Local mode's simulated rates: the chart is marked as sample data"),
});
export type RateHistory = z.infer<typeof rateHistoryResponse>;

export const quoteBody = z.object({
  type: z.enum(PLACED_ORDER_TYPES),
  currencyFrom: z.string().max(10),
  currencyTo: z.string().max(10),
  amount: z.string().max(40),
  sendToMyWallet: z.boolean().optional(),
});
export type QuoteBody = z.infer<typeof quoteBody>;

export const quoteResponse = z.object({
  rate: z.string(),
  fee: z.string(),
  feeCurrency: z.literal('EUR'),
  networkFee: z.string(),
  networkFeeCurrency: z.string(),
  amountConverted: z.string(),
  amountEur: z.string(),
  rateType: z.literal('floating'),
  note: z.string(),
  sample: z.boolean().optional().describe("Made from local mode's simulated rates: the page marks it as sample data"),
});
export type QuoteResponse = z.infer<typeof quoteResponse>;
