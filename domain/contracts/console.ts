import { z } from 'zod';
import { FAILURE_REASONS, ORDER_STATUSES, ORDER_TYPES, REFUNDS } from '../orders';
import { VERIFICATION_KINDS, VERIFICATION_PHASES, VERIFICATION_REJECTION_REASONS } from '../verification';
import { SEND_STATUSES } from '../wallet';
import { auditEntrySchema } from './audit';
import { balancesResponse } from './wallet';

/**
 * What the operator console (/ops/) reads besides the operator actions it shares with the CLI:
 * the queues' counts, orders and accounts found by search with their history, and the documents
 * waiting for a check. All under /api/ops (admin:muntly), each also an `npm run ops` command.
 * A read that shows customers' personal data (emails, payout addresses) is written to the audit
 * trail (`personal.read`, naming the view and the rows shown).
 */

/** GET /api/ops/queues: how much waits in each of the console's queues. */
export const opsQueuesResponse = z.object({
  verificationRequests: z.number().int().describe('Kinds customers asked to have enabled, not enabled yet'),
  documents: z.number().int().describe('Submissions waiting for a document to be checked by hand (the ID)'),
  unmatchedPayments: z.number().int().describe('Bank payments from statements that matched nothing (open)'),
  payoutsAwaitingApproval: z.number().int().describe('Payouts waiting for two operators'),
  chainAlerts: z
    .number()
    .int()
    .describe('Open chain alerts: a deposit booked back after a reorg, a reconciliation that found a difference'),
  chainUnmatched: z
    .number()
    .int()
    .describe('Outputs in the unmatched chain queue (dust, coins at addresses that expected nothing)'),
});
export type OpsQueues = z.infer<typeof opsQueuesResponse>;

/** GET /api/ops/verification-documents: what waits for a document check, oldest first. */
export const verificationDocumentsResponse = z.object({
  documents: z.array(
    z.object({
      email: z.string().nullable(),
      accountKey: z.string(),
      kind: z.enum(VERIFICATION_KINDS),
      submittedAt: z.string().nullable(),
    }),
  ),
});
export type VerificationDocumentsResponse = z.infer<typeof verificationDocumentsResponse>;

/** POST /api/ops/verification/reject: the details go back to step 1 with a reason the customer reads in their language. */
export const verificationRejectBody = z.object({
  email: z.email().max(254),
  kind: z.enum(VERIFICATION_KINDS),
  reason: z.enum(VERIFICATION_REJECTION_REASONS),
});
export type VerificationRejectBody = z.infer<typeof verificationRejectBody>;
export const verificationRejectResponse = z.object({
  email: z.string(),
  kind: z.enum(VERIFICATION_KINDS),
  phase: z.literal('step_1'),
  reason: z.enum(VERIFICATION_REJECTION_REASONS),
});
export type VerificationRejectResponse = z.infer<typeof verificationRejectResponse>;

const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'invalid_date');

/** GET /api/ops/orders: search by reference (full or short, any case or spacing) or email, status, type, day of placing. */
export const opsOrdersQuery = z.object({
  q: z
    .string()
    .trim()
    .max(254)
    .optional()
    .describe(
      'An order reference (ABCD-EFGH-IJKL-MNOP or its short ABCD-EFGH, any case, spaces or dashes), or part of an email address',
    ),
  status: z.enum(ORDER_STATUSES).optional(),
  type: z.enum(ORDER_TYPES).optional(),
  from: isoDay.optional().describe('Placed on or after this day (UTC)'),
  to: isoDay.optional().describe('Placed on or before this day (UTC)'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type OpsOrdersQuery = z.input<typeof opsOrdersQuery>;

export const opsOrderSummary = z.object({
  reference: z.string(),
  shortReference: z.string(),
  type: z.enum(ORDER_TYPES),
  status: z.enum(ORDER_STATUSES),
  currencyFrom: z.string(),
  currencyTo: z.string(),
  amount: z.string().describe('In currencyFrom'),
  amountEur: z.string(),
  email: z.string(),
  accountKey: z.string().nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  failureReason: z.enum(FAILURE_REASONS).nullable(),
});
export type OpsOrderSummary = z.infer<typeof opsOrderSummary>;
export const opsOrdersResponse = z.object({ orders: z.array(opsOrderSummary) });
export type OpsOrdersResponse = z.infer<typeof opsOrdersResponse>;

/**
 * An order's history, oldest first, put together from what each part recorded: the order's own
 * times, its payouts' (requested, waiting for approval, submitted, completed or failed) and every
 * audit row about the order, its bank payments and its payouts (who matched, assigned, reviewed,
 * approved …).
 */
export const ORDER_EVENT_KINDS = [
  'placed',
  'funded',
  'settled',
  'expired',
  'completed',
  'payout_requested',
  'payout_submitted',
  'payout_completed',
  'payout_failed',
  'audit',
] as const;
export type OrderEventKind = (typeof ORDER_EVENT_KINDS)[number];
export const orderEventSchema = z.object({
  at: z.string(),
  kind: z.enum(ORDER_EVENT_KINDS),
  actor: z.string().nullable().describe('Who did it, for audit rows (an operator, a job, account:<key>)'),
  action: z.string().nullable().describe('The audit action (domain/audit.ts), for audit rows'),
  status: z.string().nullable(),
  amount: z.string().nullable(),
  currency: z.string().nullable(),
  detail: z.string().nullable().describe('A reason, a txid, a bank reference, what waits for approval …'),
});
export type OrderEvent = z.infer<typeof orderEventSchema>;

export const opsOrderParams = z.object({ reference: z.string().max(40) });
export const opsOrderResponse = z.object({
  order: opsOrderSummary.extend({
    address: z.string().nullable().describe('Delivery address or IBAN; null: into the Muntly wallet'),
    receivingAddress: z.string().nullable(),
    amountReceived: z.string().nullable(),
    actualAmountConverted: z.string().nullable(),
    payoutTxid: z.string().nullable(),
    refund: z.enum(REFUNDS).nullable(),
    language: z.string(),
    businessHold: z.boolean(),
    payoutAwaitingApproval: z.boolean(),
    reviewHold: z
      .boolean()
      .describe(
        "Paid, waiting for an operator: the payer's week passed the cap for customers without an account (ops order-review)",
      ),
    payerIban: z.string().nullable().describe('The IBAN the bank payment came from, when the statement named it'),
  }),
  history: z.array(orderEventSchema),
});
export type OpsOrderResponse = z.infer<typeof opsOrderResponse>;

/** GET /api/ops/accounts: accounts whose email contains `q`, or whose account key is `q`. */
export const opsAccountsQuery = z.object({
  q: z.string().trim().min(1, 'required').max(254),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export const opsAccountSummary = z.object({
  accountKey: z.string(),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  createdAt: z.string(),
});
export type OpsAccountSummary = z.infer<typeof opsAccountSummary>;
export const opsAccountsResponse = z.object({ accounts: z.array(opsAccountSummary) });
export type OpsAccountsResponse = z.infer<typeof opsAccountsResponse>;

export const opsAccountParams = z.object({ accountKey: z.string().max(40) });
export const opsAccountResponse = z.object({
  account: opsAccountSummary,
  balances: balancesResponse,
  verifications: z.array(
    z.object({
      kind: z.enum(VERIFICATION_KINDS),
      phase: z.enum(VERIFICATION_PHASES),
      requestedAt: z.string().nullable(),
      submittedAt: z.string().nullable(),
      verifiedAt: z.string().nullable(),
      rejection: z.object({ reason: z.enum(VERIFICATION_REJECTION_REASONS), at: z.string() }).nullable(),
    }),
  ),
  orders: z.array(opsOrderSummary).describe('The newest orders of the account or its email'),
  sends: z.array(
    z.object({
      id: z.string(),
      status: z.enum(SEND_STATUSES),
      currency: z.string(),
      amount: z.string(),
      address: z.string(),
      internal: z.boolean(),
      createdAt: z.string(),
      confirmedAt: z.string().nullable(),
    }),
  ),
  sendsFrozen: z
    .boolean()
    .nullable()
    .describe("Whether the account's sends are frozen (null: account protection is not installed)"),
  audit: z.array(auditEntrySchema).describe('The newest audit rows about this account'),
});
export type OpsAccountResponse = z.infer<typeof opsAccountResponse>;
