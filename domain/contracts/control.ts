import { z } from 'zod';
import { CONTROL_SCHEMES, controlProofSchema, HOUSE_ROLES } from './liabilities';

/**
 * Proofs of control (domain/control.ts) between the API and the signer (`npm run signer --
 * sign-reserves <snapshotId>`): what to sign for a published snapshot, and the signed proofs. The
 * public list of stored proofs is GET /api/liabilities/:id/control (contracts/liabilities.ts).
 */
export const controlRequestSchema = z.object({
  currency: z.string(),
  address: z.string(),
  role: z.enum(HOUSE_ROLES),
  scheme: z
    .enum(CONTROL_SCHEMES)
    .describe('How the address’s wallets sign a message (domain/control.ts controlScheme)'),
  branch: z
    .literal('change')
    .nullable()
    .describe('`change` addresses: the house key’s branch the address derives at; null for the XRP account'),
  index: z
    .number()
    .int()
    .nullable()
    .describe(
      'The derivation index on that branch; null for the XRP account, or an address the house_addresses table does not know',
    ),
  message: z.string().describe('The exact text to sign (domain/control.ts controlMessage)'),
});
export type ControlRequest = z.infer<typeof controlRequestSchema>;

/** GET /api/ops/liabilities/:id/control-requests. */
export const controlRequestsResponse = z.object({
  snapshotId: z.number().int(),
  digest: z.string().describe('The snapshot’s digest, which every message names'),
  requests: z.array(controlRequestSchema),
});
export type ControlRequestsResponse = z.infer<typeof controlRequestsResponse>;

/** POST /api/ops/liabilities/:id/control: stored all together, or none (a bad one refuses the whole request). */
export const controlSubmitBody = z.object({ proofs: z.array(controlProofSchema).min(1).max(1000) });
export type ControlSubmitBody = z.infer<typeof controlSubmitBody>;
export const controlSubmitResponse = z.object({
  stored: z.number().int().describe('Proofs stored by this request (a proof of an address already proven replaces it)'),
  controlled: z.number().int().describe('Addresses of the snapshot with a proof, after this request'),
  listed: z.number().int().describe('House addresses the snapshot’s reserves list'),
});
export type ControlSubmitResponse = z.infer<typeof controlSubmitResponse>;
