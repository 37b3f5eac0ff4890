import { z } from 'zod';

/**
 * Proof of liabilities (domain/liabilities.ts): the snapshots anyone may read (GET
 * /api/liabilities, the whole published file at GET /api/liabilities/:id and under the site at
 * /proof/<id>.json, /proof/latest.json and per currency /proof/<id>/<CUR>.json), the logged-in
 * user's own leaves (GET /api/wallet/proof) and the operator's POST /api/ops/liabilities/publish.
 * Amounts: `total`, `held`, `balance` are decimal strings at the currency's decimals; tree amounts
 * (`sum`, `value`) are integers of minor units as decimal strings, as in the published tree.
 */
const decimal = z.string().describe('Decimal string at the currency’s decimals');
const minor = z.string().describe('Integer of minor units as a decimal string');

export const ADDRESS_BRANCHES = ['users', 'orders', 'account'] as const;

/** The reserves side: the house's addresses per currency and what they hold on chain, when read. */
export const reservesSchema = z.object({
  source: z.string().describe('Where the balances were read: simulated-chain in local mode'),
  currencies: z.array(
    z.object({
      currency: z.string(),
      addresses: z.array(
        z.object({
          address: z.string(),
          branch: z.enum(ADDRESS_BRANCHES).describe('users: wallet reception addresses (chain 0 of the house key); orders: sell and swap receiving addresses (chain 1); account: the one XRP account'),
          balance: decimal.nullable(),
        }),
      ),
      held: decimal.nullable().describe('What the addresses hold together; null when this deployment reads no balances (look them up on the chain)'),
    }),
  ),
});
export type Reserves = z.infer<typeof reservesSchema>;

export const snapshotSummarySchema = z.object({
  snapshotId: z.number().int(),
  takenAt: z.string().describe('ISO 8601: the instant of the one consistent read of the ledger'),
  file: z.string().describe('The whole published snapshot, under the site'),
  currencies: z.array(
    z.object({
      currency: z.string(),
      decimals: z.number().int(),
      rootHash: z.string(),
      total: decimal.describe('The root’s amount: what the operator owes its users'),
      leafCount: z.number().int(),
      held: decimal.nullable().describe('What the house’s addresses held at the same instant (null: not read)'),
      file: z.string().describe('This currency’s tree alone, under the site'),
    }),
  ),
});
export type SnapshotSummary = z.infer<typeof snapshotSummarySchema>;

export const snapshotsQuery = z.object({
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional().describe('Snapshots older than this id (paging)'),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const snapshotsResponse = z.object({ snapshots: z.array(snapshotSummarySchema), next: z.number().int().nullable().describe('`before` for the next page') });
export type SnapshotsResponse = z.infer<typeof snapshotsResponse>;

export const snapshotParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** GET /api/wallet/proof: per snapshot, the user's secret nonce and every leaf with its path. */
export const myProofSchema = z.object({
  snapshotId: z.number().int(),
  takenAt: z.string(),
  nonce: z.string().describe('32 bytes of hex: your leaves commit to it; keep it to yourself'),
  currencies: z.array(
    z.object({
      currency: z.string(),
      decimals: z.number().int(),
      balance: decimal.describe('Your balance in the snapshot: your leaves added up'),
      root: z.object({ hash: z.string(), sum: minor }),
      file: z.string().describe('The published tree of this currency, under the site'),
      leaves: z.array(
        z.object({
          index: z.number().int(),
          value: minor,
          path: z.array(z.tuple([z.string(), minor])).describe('The sibling on every level, leaf level first: [hash, amount]'),
        }),
      ),
    }),
  ),
});
export type MyProof = z.infer<typeof myProofSchema>;
export const myProofQuery = snapshotsQuery.extend({ limit: z.coerce.number().int().min(1).max(20).default(5) });
export const myProofResponse = z.object({ proofs: z.array(myProofSchema), next: z.number().int().nullable() });
export type MyProofResponse = z.infer<typeof myProofResponse>;

/** POST /api/ops/liabilities/publish. */
export const publishResponse = snapshotSummarySchema;
export type PublishResponse = SnapshotSummary;
