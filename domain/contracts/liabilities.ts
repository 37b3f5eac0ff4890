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

/** What a listed house address is: the hot or change addresses of a chain (the house key's change branch), the one XRP account. */
export const HOUSE_ROLES = ['change', 'account'] as const;

/** The signature schemes of a proof of control (domain/control.ts). */
export const CONTROL_SCHEMES = ['bip322-simple', 'bitcoin-message', 'personal_sign', 'xrpl'] as const;

/**
 * The reserves side: per currency what the house held at the snapshot, read where the chain says
 * it (the block height it was read at), split into the house's own addresses (listed, each with a
 * proof of control once the signer has signed it) and the customers' deposit addresses (their
 * number and sum only: a list would tie customers to addresses, issue 32).
 */
export const reservesSchema = z.object({
  source: z
    .string()
    .describe('Where the balances were read: simulated-chain in local mode, the watcher’s view of the nodes otherwise'),
  /** Format 1 snapshots: their addresses were withdrawn by migration 0035. */
  withdrawn: z.boolean().optional(),
  currencies: z.array(
    z.object({
      currency: z.string(),
      height: z
        .number()
        .int()
        .nullable()
        .optional()
        .describe('The block height the balances were read at (null: the adapter reads no chain)'),
      blockHash: z.string().nullable().optional(),
      addresses: z
        .array(
          z.object({
            address: z.string(),
            role: z.enum(HOUSE_ROLES),
            balance: decimal.nullable(),
          }),
        )
        .optional(),
      depositAddresses: z
        .object({ count: z.number().int(), balance: decimal.nullable() })
        .optional()
        .describe('Customers’ deposit addresses not yet swept: how many hold something, and their sum'),
      held: decimal.nullable().describe('Everything the house held; null when this deployment reads no balances'),
    }),
  ),
});
export type Reserves = z.infer<typeof reservesSchema>;

/** A proof of control of one house address (GET /api/liabilities/:id/control). */
export const controlProofSchema = z.object({
  currency: z.string(),
  address: z.string(),
  scheme: z.enum(CONTROL_SCHEMES),
  message: z.string().describe('domain/control.ts controlMessage: names the address and the snapshot’s digest'),
  signature: z.string(),
  publicKey: z.string().nullable().describe('XRP: the key that signed (the account’s master or regular key)'),
});
export type ControlProof = z.infer<typeof controlProofSchema>;
/** GET /api/liabilities/:id/control (and /proof/<id>/control.json). */
export const controlProofsResponse = z.object({ proofs: z.array(controlProofSchema) });

export const snapshotSummarySchema = z.object({
  snapshotId: z.number().int(),
  takenAt: z.string().describe('ISO 8601: the instant of the one consistent read of the ledger'),
  format: z
    .string()
    .describe('muntly-liabilities-2 (docs/proof-format.md); snapshots of format 1 keep only their totals'),
  digest: z
    .string()
    .nullable()
    .describe('SHA-256 of the snapshot’s statement (docs/proof-format.md); the proofs of control sign it'),
  file: z.string().describe('The whole published snapshot, under the site'),
  currencies: z.array(
    z.object({
      currency: z.string(),
      decimals: z.number().int(),
      rootHash: z.string(),
      total: decimal.describe('The root’s amount: everything Muntly owed its customers in this currency'),
      leafCount: z.number().int().describe('Padded to a power of two (at least 4096): not the number of holders'),
      held: decimal.nullable().describe('What the house held at the same instant (null: not read)'),
      difference: decimal.nullable().describe('held − total: negative means less was held than owed'),
      height: z.number().int().nullable().describe('The block height the reserves were read at'),
      controlled: z.number().int().describe('How many of the listed house addresses have a verified proof of control'),
      file: z.string().describe('This currency’s tree alone, under the site'),
    }),
  ),
});
export type SnapshotSummary = z.infer<typeof snapshotSummarySchema>;

export const snapshotsQuery = z.object({
  before: z.coerce
    .number()
    .int()
    .min(1)
    .max(2_147_483_647)
    .optional()
    .describe('Snapshots older than this id (paging)'),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const snapshotsResponse = z.object({
  snapshots: z.array(snapshotSummarySchema),
  next: z.number().int().nullable().describe('`before` for the next page'),
});
export type SnapshotsResponse = z.infer<typeof snapshotsResponse>;

export const snapshotParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/** GET /api/wallet/proof: per snapshot, the user's secret nonce and every leaf with its path. */
export const myProofSchema = z.object({
  snapshotId: z.number().int(),
  takenAt: z.string(),
  owner: z.string().describe('Your id, as your leaves commit to it (your account id)'),
  nonce: z.string().describe('32 bytes of hex: your leaves commit to it; keep it to yourself'),
  currencies: z.array(
    z.object({
      currency: z.string(),
      decimals: z.number().int(),
      balance: decimal.describe(
        'What Muntly owed you in the snapshot (wallet, sends and orders not yet paid): your leaves added up',
      ),
      root: z.object({ hash: z.string(), sum: minor }),
      leafCount: z.number().int(),
      file: z.string().describe('The published tree of this currency, under the site'),
      leaves: z.array(
        z.object({
          index: z.number().int(),
          value: minor,
          path: z
            .array(z.tuple([z.string(), minor]))
            .describe('The sibling on every level, leaf level first: [hash, amount]'),
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
