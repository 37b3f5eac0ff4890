import { z } from 'zod';
import { CHAIN_OUTPUT_STATUSES, CHAIN_UNMATCHED_REASONS, HOUSE_BRANCHES, NODE_CURRENCIES } from '../chain';

/**
 * The chain side under /api/ops (admin tokens; issue 30): what the signer asks (the house outputs
 * it may spend, a fresh change address), the unmatched chain queue and the alerts the operator
 * handles, and the reconciliation of the coins on chain with the ledger. `npm run signer` and
 * `npm run ops -- reconcile | chain-unmatched | chain-assign | chain-alerts` are its clients.
 */
const currency = z.enum(NODE_CURRENCIES);
/** The unmatched chain queue also holds XRP payments without a tag, or with one Muntly never gave (issue 31). */
const queueCurrency = z.enum([...NODE_CURRENCIES, 'XRP']);
// Ether's transaction hashes are written 0x…
const txid = z.string().regex(/^(0x)?[0-9a-f]{64}$/, 'invalid_txid');

export const chainCurrencyQuery = z.object({ currency });
export const houseOutputSchema = z.object({
  txid,
  vout: z.number().int().min(0),
  address: z.string(),
  amount: z.string().describe('Decimal string'),
  branch: z.enum(HOUSE_BRANCHES),
  index: z.number().int().min(0),
});
export type HouseOutput = z.infer<typeof houseOutputSchema>;
export const houseOutputsResponse = z.object({
  outputs: z
    .array(houseOutputSchema)
    .describe('Unspent outputs at house addresses, booked (credited, change, unmatched, assigned), oldest first'),
  handedOut: z
    .object({ users: z.number().int(), orders: z.number().int(), change: z.number().int() })
    .describe('Addresses handed out per branch: the signer derives them to refuse a payout to the house itself'),
});
export type HouseOutputsResponse = z.infer<typeof houseOutputsResponse>;

export const changeAddressBody = z.object({ currency });
export const changeAddressResponse = z.object({ address: z.string(), index: z.number().int() });
export type ChangeAddressResponse = z.infer<typeof changeAddressResponse>;

export const chainOutputSchema = z.object({
  currency: z.string(),
  txid,
  vout: z.number().int(),
  address: z.string(),
  amount: z.string(),
  height: z.number().int(),
  status: z.enum(CHAIN_OUTPUT_STATUSES),
  unmatchedReason: z.enum(CHAIN_UNMATCHED_REASONS).nullable(),
  creditedTo: z.string().nullable(),
  createdAt: z.string(),
});
export type ChainOutput = z.infer<typeof chainOutputSchema>;
export const unmatchedChainOutputSchema = chainOutputSchema.extend({
  sender: z
    .string()
    .nullable()
    .describe(
      'Who paid it, where the chain says so plainly: the paying XRP account (address:tag with a source tag); null for the Bitcoin family and ether. A return goes to the address the sender names, not necessarily this one',
    ),
});
export type UnmatchedChainOutput = z.infer<typeof unmatchedChainOutputSchema>;
export const chainUnmatchedResponse = z.object({ outputs: z.array(unmatchedChainOutputSchema) });
export type ChainUnmatchedResponse = z.infer<typeof chainUnmatchedResponse>;

export const chainAssignBody = z.object({
  currency: queueCurrency,
  txid,
  vout: z.number().int().min(0).max(100_000),
  email: z.email().max(254),
});
export type ChainAssignBody = z.infer<typeof chainAssignBody>;
export const chainAssignResponse = z.object({ output: chainOutputSchema });

export const chainReturnBody = z.object({
  currency: queueCurrency,
  txid,
  vout: z.number().int().min(0).max(100_000),
  destination: z
    .string()
    .trim()
    .min(1)
    .max(128)
    .describe('The address the sender asked to have the coins back at (never guessed from the inputs)'),
});
export const chainReturnResponse = z.object({
  output: chainOutputSchema,
  payout: z
    .object({
      id: z.string().uuid(),
      status: z.string(),
      amount: z.string(),
      networkFee: z.string(),
      destination: z.string(),
    })
    .describe('The payout that sends the coins, less the network fee; it may wait for a second operator'),
});
export type ChainReturnResponse = z.infer<typeof chainReturnResponse>;

export const chainAlertSchema = z.object({
  id: z.string().uuid(),
  currency: z.string(),
  kind: z.enum(['reorg_reversal', 'reconciliation', 'house_account']),
  detail: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type ChainAlert = z.infer<typeof chainAlertSchema>;
export const chainAlertsResponse = z.object({ alerts: z.array(chainAlertSchema) });
export type ChainAlertsResponse = z.infer<typeof chainAlertsResponse>;
export const chainAlertParams = z.object({ id: z.string().uuid() });
export const chainAlertResolveResponse = z.object({ alert: chainAlertSchema });

export const reconciliationSchema = z.object({
  currency: z.string(),
  onChain: z
    .string()
    .nullable()
    .describe("The unspent outputs of the house's keys on chain, as the node counts them (null: the node cannot scan)"),
  tracked: z.string().describe("The watcher's unspent house outputs"),
  expected: z.string().describe('What the ledger says the house holds on chain, with what is mined but not yet booked'),
  difference: z.string().describe('onChain (or tracked) minus expected: anything but 0 raises an alert'),
  ok: z.boolean(),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
export const reconcileResponse = z.object({ results: z.array(reconciliationSchema) });
export type ReconcileResponse = z.infer<typeof reconcileResponse>;
