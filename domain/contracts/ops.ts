import { z } from 'zod';
import { VERIFICATION_KINDS } from '../verification';
import { identityKindSchema } from './identity';

/**
 * Operator actions under /api/ops (scope admin:muntly), the same as `npm run ops -- …`, whose
 * client (server/src/ops/cli.ts) reads these types. The faucet's operator routes are in faucet.ts.
 */
export const opsEmailBody = z.object({ email: z.email().max(254) });
export type OpsEmailBody = z.infer<typeof opsEmailBody>;
export const opsEmailKindBody = z.object({ email: z.email().max(254), kind: z.enum(VERIFICATION_KINDS) });
export type OpsEmailKindBody = z.infer<typeof opsEmailKindBody>;

/** GET /api/ops/users: every account, or (email) the one with this email address (an operator looks up whom to act on). */
export const opsUsersQuery = z.object({ email: z.email().max(254).optional() });
export const opsUsersResponse = z.object({
  users: z.array(
    z.object({
      email: z.string().nullable(),
      displayName: z.string().nullable(),
      accountKey: z.string(),
      issuer: z.string(),
      createdAt: z.string(),
    }),
  ),
});
export type OpsUsersResponse = z.infer<typeof opsUsersResponse>;

export const grantAdminResponse = z.object({ email: z.string(), admin: z.literal(true) });
export type GrantAdminResponse = z.infer<typeof grantAdminResponse>;

export const devTokenResponse = z.object({ email: z.string(), accessToken: z.string(), expiresIn: z.number() });
export type DevTokenResponse = z.infer<typeof devTokenResponse>;

export const enableVerificationResponse = z.object({ email: z.string(), kind: z.string(), phase: z.string() });
export type EnableVerificationResponse = z.infer<typeof enableVerificationResponse>;
export const verifyResponse = z.object({ email: z.string(), kind: z.string(), phase: z.literal('verified') });
export type VerifyResponse = z.infer<typeof verifyResponse>;

/** GET /api/ops/verification-requests: kinds users asked to have enabled, oldest first. */
export const verificationRequestsQuery = z.object({
  all: z.enum(['true', 'false']).optional().describe('true: also the requests already enabled'),
});
export const verificationRequestsResponse = z.object({
  requests: z.array(
    z.object({
      email: z.string().nullable(),
      accountKey: z.string(),
      kind: z.enum(VERIFICATION_KINDS),
      phase: z.string(),
      requestedAt: z.string(),
    }),
  ),
});
export type VerificationRequestsResponse = z.infer<typeof verificationRequestsResponse>;

/** A user's identity data, as the user sees it (every read is written to the audit log). */
export const opsIdentityResponse = z.object({ email: z.string(), kinds: z.array(identityKindSchema) });
export type OpsIdentityResponse = z.infer<typeof opsIdentityResponse>;

export const outboxQuery = z.object({ to: z.string().max(254).optional() });
export const outboxResponse = z.object({
  messages: z.array(
    z.object({
      channel: z.string(),
      to: z.string(),
      subject: z.string(),
      body: z.string(),
      html: z.string().nullable(),
      createdAt: z.string(),
    }),
  ),
});
export type OutboxResponse = z.infer<typeof outboxResponse>;
export type OutboxMessage = OutboxResponse['messages'][number];

export const ledgerCheckSchema = z.object({ name: z.string(), ok: z.boolean(), problems: z.array(z.string()) });
export type LedgerCheck = z.infer<typeof ledgerCheckSchema>;
export const ledgerVerifyResponse = z.object({
  ok: z.boolean(),
  checks: z.array(ledgerCheckSchema),
  owedToUsers: z
    .array(
      z.object({ currency: z.string(), total: z.string().describe('Decimal string, every decimal of the currency') }),
    )
    .describe('Per currency, what all users hold together: the total a proof of liabilities must show'),
});
export type LedgerVerifyResponse = z.infer<typeof ledgerVerifyResponse>;

export const retentionResponse = z.object({
  identityDataDeleted: z.number(),
  messagesDeleted: z.number(),
  /** Money records whose personal fields were erased (their amounts stay): orders, bank payments, bank payouts, pain.001 files, wallet sends. */
  recordsErased: z.object({
    orders: z.number(),
    bankPayments: z.number(),
    payouts: z.number(),
    payoutFiles: z.number(),
    sends: z.number(),
  }),
  ranAt: z.string(),
});
export type RetentionRun = z.infer<typeof retentionResponse>;

export const chainDepositBody = z.object({
  currency: z.string().max(10),
  address: z.string().max(200),
  amount: z.string().max(40),
  txid: z.string().max(100).optional(),
  sender: z.string().max(200).optional(),
});
export type ChainDepositBody = z.infer<typeof chainDepositBody>;
export const chainDepositResponse = z.object({
  txid: z.string(),
  currency: z.string(),
  address: z.string(),
  amount: z.string(),
  credited: z.boolean(),
  orderReference: z.string().nullable(),
});
export type ChainDeposit = z.infer<typeof chainDepositResponse>;

export const paymentReceivedBody = z.object({
  reason: z.string().min(1).max(140),
  amount: z.string().max(40),
  txid: z.string().max(100).optional(),
  /** The statement shows a business payer: a buy then waits until a business behind it is verified. */
  fromBusinessAccount: z.boolean().optional(),
  /** The payer's IBAN as the statement shows it: the payer's week counts by it. */
  payerIban: z.string().max(50).optional(),
});
export type PaymentReceivedBody = z.infer<typeof paymentReceivedBody>;
export const paymentReceivedResponse = z.object({
  reference: z.string(),
  type: z.string(),
  status: z.string(),
  amountReceived: z.string().nullable(),
  credited: z.boolean(),
  businessHold: z.boolean(),
});
export type PaymentReceived = z.infer<typeof paymentReceivedResponse>;

/** POST /api/ops/orders/business-payment: the bank statement shows a buy was paid from a business account. */
export const businessPaymentBody = z.object({ reference: z.string().min(1).max(40) });
export const businessPaymentResponse = z.object({
  reference: z.string(),
  status: z.string(),
  businessHold: z.boolean(),
});
export type BusinessPayment = z.infer<typeof businessPaymentResponse>;
/** An operator's decision on an anonymous order held past the weekly cap: convert it anyway, or refund it. */
export const orderReviewBody = z.object({
  reference: z.string().min(1).max(40),
  decision: z.enum(['convert', 'refund']),
});
export const orderReviewResponse = z.object({
  reference: z.string(),
  status: z.string(),
  reviewHold: z.boolean(),
  failureReason: z.string().nullable(),
});
export type OrderReview = z.infer<typeof orderReviewResponse>;
