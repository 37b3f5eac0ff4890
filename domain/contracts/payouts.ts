import { z } from 'zod';
import {
  PAYOUT_APPROVAL_REASONS,
  PAYOUT_PURPOSES,
  PAYOUT_RAILS,
  PAYOUT_STATUSES,
  PAYOUT_TXID_PATTERN,
} from '../payouts';

/**
 * The executor's side of the payout pipeline, under /api/ops (admin tokens only):
 * GET /api/ops/payouts lists them, POST /api/ops/payouts/:id/result reports one; `npm run ops --
 * payouts | payout-result` and an external signer are its clients. Operators approve or reject
 * the payouts awaiting approval (POST /api/ops/payouts/:id/approve | reject; `ops payout-approve |
 * payout-reject`).
 */
const operator = z.string().describe("An operator: the ops token's issuer and subject");
export const payoutApprovalSchema = z
  .object({
    reason: z
      .enum(PAYOUT_APPROVAL_REASONS)
      .describe('Why it waits: above_limit (EUR value), new_account (recent bank or ID verification), frozen_account'),
    reviewedBy: operator.nullable().describe('The first approval'),
    reviewedAt: z.string().nullable(),
    approvedBy: operator
      .nullable()
      .describe('The second approval, by another operator: the payout went on to the worker'),
    approvedAt: z.string().nullable(),
    rejectedBy: operator
      .nullable()
      .describe('Rejected: the payout failed and its money went back (reason in failureReason)'),
    rejectedAt: z.string().nullable(),
    issued: z
      .array(
        z.object({
          operator: operator.describe('The operator whose identity was issued'),
          by: operator.describe('Who issued it'),
          action: z
            .enum(['dev.token', 'admin.grant'])
            .describe('dev.token: an access token minted for them (local mode); admin.grant: made an operator'),
          at: z.string(),
        }),
      )
      .optional()
      .describe(
        'In the ops list: who minted the identities of the operators this payout names (and of the one asking), from the audit trail. Locally one admin can mint a second operator (dev-token + grant-admin): four eyes that are one person show here',
      ),
  })
  .describe('Four eyes: two different operators approve, neither the one who triggered it; null when it never waited');
export const payoutSchema = z
  .object({
    id: z.string().uuid(),
    rail: z.enum(PAYOUT_RAILS).describe('chain: crypto to an address; bank: EUR by SEPA transfer'),
    purpose: z.enum(PAYOUT_PURPOSES),
    status: z.enum(PAYOUT_STATUSES),
    currency: z.string(),
    destination: z
      .string()
      .nullable()
      .describe('Address (XRP: address:tag) or IBAN; null: back to the account the refunded bank payment came from'),
    reference: z.string().nullable().describe('SEPA payment reason'),
    amount: z.string().describe('What the recipient gets, decimal string in the currency'),
    networkFee: z.string().describe('Network fee budgeted on top (crypto), decimal string'),
    idempotencyKey: z.string().describe('Execute each key once; a repeated key must get the first result'),
    attempts: z.number().int(),
    txid: z.string().nullable(),
    txids: z
      .array(z.string())
      .describe("Chain: every txid the payout's transaction had (a replacement by fee adds one), oldest first"),
    chainFee: z.string().nullable().describe("Chain: this payout's share of its transaction's fee, decimal string"),
    instructionMac: z
      .string()
      .nullable()
      .describe(
        'HMAC-SHA256 of the instruction under the key the API and the signer share (the signer pays nothing without it)',
      ),
    failureReason: z.string().nullable(),
    createdAt: z.string(),
    submittedAt: z.string().nullable(),
    completedAt: z.string().nullable(),
    bankExportId: z
      .string()
      .uuid()
      .nullable()
      .describe('SEPA: the pain.001 file it went to the bank in (GET /api/ops/bank/exports/:id); null: not exported'),
    eurValue: z.string().nullable().describe('What amount was worth in EUR when the payout was requested'),
    triggeredBy: operator.nullable().describe("The operator whose action created it; null: the customer's"),
    approval: payoutApprovalSchema.nullable(),
  })
  .describe('A payout');
export type Payout = z.infer<typeof payoutSchema>;

export const payoutsQuery = z.object({
  status: z.enum(PAYOUT_STATUSES).optional(),
  rail: z.enum(PAYOUT_RAILS).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type PayoutsQuery = z.input<typeof payoutsQuery>;
export const payoutsResponse = z.object({ payouts: z.array(payoutSchema) });
export type PayoutsResponse = z.infer<typeof payoutsResponse>;

export const payoutParams = z.object({ id: z.string().uuid() });
export const payoutResultBody = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('completed'),
    txid: z
      .string()
      .regex(PAYOUT_TXID_PATTERN, 'invalid_txid')
      .describe('Chain transaction id or bank end-to-end reference'),
  }),
  z.object({
    status: z.literal('broadcast'),
    txid: z
      .string()
      // Ether's transaction hashes are written 0x…
      .regex(/^(0x)?[0-9a-f]{64}$/, 'invalid_txid')
      .describe('The transaction on the network'),
    fee: z
      .string()
      .regex(/^\d{1,12}(\.\d{1,18})?$/, 'invalid_amount')
      .describe("This payout's share of the transaction's fee, decimal string"),
    inputs: z
      .array(z.string().regex(/^(0x)?[0-9a-f]{64}:\d{1,6}$/))
      .max(1000)
      .describe('The house outputs the transaction spends (txid:vout)'),
  }),
  z.object({
    status: z.literal('failed'),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(500)
      .describe('Why it cannot be paid; the money goes back to where it came from'),
  }),
]);
export type PayoutResultBody = z.input<typeof payoutResultBody>;
export const payoutResultResponse = z.object({
  payout: payoutSchema,
  booked: z.boolean().describe('false: this result was already booked'),
});
export type PayoutResultResponse = z.infer<typeof payoutResultResponse>;

export const payoutApproveResponse = z.object({
  payout: payoutSchema,
  released: z
    .boolean()
    .describe(
      'true: this was the second approval, the payout is pending for the worker; false: the first (the review), it waits for another operator',
    ),
});
export type PayoutApproveResponse = z.infer<typeof payoutApproveResponse>;
export const payoutRejectBody = z.object({
  reason: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe('Why it is refused; stored with the payout, whose money goes back to where it came from'),
});
export type PayoutRejectBody = z.input<typeof payoutRejectBody>;
export const payoutRejectResponse = z.object({ payout: payoutSchema });
export type PayoutRejectResponse = z.infer<typeof payoutRejectResponse>;
