import { z } from 'zod';
import { BANK_PAYMENT_STATUSES } from '../bank';

/**
 * The operator's bank files under /api/ops/bank (scope admin:muntly), the same as `npm run ops --
 * import-statement | unmatched | assign-payment | refund-payment | export-payouts | bank-exports |
 * bank-export`, whose client (server/src/ops/cli.ts) and the operator console read these types.
 */

/** A payment that arrived on Muntly's account, as the statement reported it. */
export const bankPaymentSchema = z
  .object({
    id: z.string().uuid(),
    entryRef: z
      .string()
      .describe("The bank's reference of the payment (AcctSvcrRef, else NtryRef, else a hash of the entry)"),
    statementId: z.string().nullable(),
    amount: z.string().describe('Decimal string'),
    currency: z.string(),
    payerName: z.string().nullable(),
    payerIban: z.string().nullable(),
    remittance: z.string().describe('The payment reason as the payer wrote it'),
    bookingDate: z.string().nullable().describe('YYYY-MM-DD'),
    status: z.enum(BANK_PAYMENT_STATUSES),
    unmatchedReason: z
      .string()
      .nullable()
      .describe(
        'Why the import matched nothing: an error code of the intake (not_found, payment_reference_ambiguous, …)',
      ),
    candidates: z
      .array(z.string())
      .describe(
        'When the reason named several open orders or accounts: their references (short order references, DEPOSIT references), for the operator to choose',
      ),
    returned: z
      .object({
        reason: z.string().nullable().describe('ISO return reason code (AC04 …)'),
        info: z.string().nullable(),
      })
      .nullable()
      .describe("A payout of Muntly's the payee's bank sent back: never refunded to the IBAN it came from"),
    orderReference: z.string().nullable().describe('The order (buy or deposit) it paid'),
    resolution: z.string().nullable(),
    resolvedBy: z.string().nullable(),
    resolvedAt: z.string().nullable(),
    importedAt: z.string(),
  })
  .describe('A bank payment');
export type BankPayment = z.infer<typeof bankPaymentSchema>;

/** What importing one payment of the statement did. */
export const IMPORT_OUTCOMES = [
  /** A credit whose reason named an open buy order or a deposit: taken in by the intake. */
  'booked',
  /** A credit nothing matched: in the unmatched queue. */
  'unmatched',
  /** Imported before (same bank reference): nothing booked again. */
  'duplicate',
  /** A debit the bank executed for an exported payout: the payout is completed. */
  'payout_completed',
  /** A credit returning a payout (the payee's bank sent it back): the payout is returned, its money owed to the customer. */
  'payout_returned',
  /** Not booked, pending, not in EUR, or a debit that does not match its payout: see `reason`. */
  'skipped',
  /** A debit that is no payout of Muntly's (fees, other transfers). */
  'ignored',
] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

export const importLineSchema = z.object({
  entryRef: z.string(),
  direction: z.enum(['credit', 'debit']),
  amount: z.string(),
  currency: z.string(),
  outcome: z.enum(IMPORT_OUTCOMES),
  /** The order reference (booked), or the payout id (payout_completed). */
  reference: z.string().nullable(),
  /** The bank payment's id (booked, unmatched): what assign-payment and refund-payment take. */
  paymentId: z.string().nullable(),
  /** skipped: not_booked, not_eur, invalid_amount, amount_differs, or the payout's error code. */
  reason: z.string().nullable(),
});
export type ImportLine = z.infer<typeof importLineSchema>;

/**
 * POST /api/ops/bank/statements: the file's bytes as the bank delivered them (Content-Type
 * application/xml or text/xml, a charset optional): read in the encoding its XML declaration (or
 * byte order mark, or charset) names, UTF-8 when none does.
 */
export const statementBody = z
  .string()
  .describe('The camt.053 statement or camt.054 notification (.001.02 … .08), as bytes in any encoding banks use');

/** A statement in the file for an account that is not Muntly's (BANK_IBAN): left alone. */
export const otherAccountSchema = z.object({
  statementId: z.string().nullable().describe('Its Stmt/Id (Ntfctn/Id)'),
  iban: z
    .string()
    .nullable()
    .describe('Masked: country, check digits and last four ("NL91 … 4300"); null when the account has no IBAN'),
  payments: z.number().int().describe('How many payments it listed'),
});
export type OtherAccount = z.infer<typeof otherAccountSchema>;

/** One step of a streamed import (Accept: application/x-ndjson): a progress line, then the result or an error. */
export type ImportStreamLine =
  | { progress: { done: number; total: number } }
  | { result: ImportStatementResponse }
  | { error: { code: string; message: string } };

export const importStatementResponse = z.object({
  version: z.string().describe('camt.053.001.NN or camt.054.001.NN'),
  statements: z
    .array(z.string().nullable())
    .describe('The imported statements’ (notifications’) ids (Stmt/Id, Ntfctn/Id): those of Muntly’s account'),
  otherAccounts: z
    .array(otherAccountSchema)
    .describe('Statements of other accounts in the same file (a bank exporting several accounts at once): skipped'),
  lines: z.array(importLineSchema),
  counts: z.record(z.enum(IMPORT_OUTCOMES), z.number().int()),
});
export type ImportStatementResponse = z.infer<typeof importStatementResponse>;

export const bankPaymentsQuery = z.object({
  status: z
    .enum([...BANK_PAYMENT_STATUSES, 'all'])
    .default('open')
    .describe('open (default): the unmatched queue'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type BankPaymentsQuery = z.input<typeof bankPaymentsQuery>;
export const bankPaymentsResponse = z.object({ payments: z.array(bankPaymentSchema) });
export type BankPaymentsResponse = z.infer<typeof bankPaymentsResponse>;

export const bankPaymentParams = z.object({ id: z.string().uuid() });
export const assignPaymentBody = z.object({
  target: z
    .string()
    .trim()
    .min(1)
    .max(140)
    .describe(
      "An order's reference or short reference (ABCD-EFGH), or a deposit reference (DEPOSIT<account key> [CUR])",
    ),
});
export type AssignPaymentBody = z.infer<typeof assignPaymentBody>;
export const assignPaymentResponse = z.object({
  payment: bankPaymentSchema,
  order: z.object({ reference: z.string(), type: z.string(), status: z.string() }),
});
export type AssignPaymentResponse = z.infer<typeof assignPaymentResponse>;
export const refundPaymentResponse = z.object({
  payment: bankPaymentSchema,
  payout: z.object({
    id: z.string().uuid(),
    status: z.string(),
    amount: z.string(),
    currency: z.string(),
    destination: z.string(),
  }),
});
export type RefundPaymentResponse = z.infer<typeof refundPaymentResponse>;

/** A pain.001 file handed to the bank. */
export const bankExportSchema = z.object({
  id: z.string().uuid(),
  messageId: z.string().describe('The file’s MsgId'),
  payouts: z.number().int(),
  total: z.string().describe('EUR, the file’s control sum'),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type BankExport = z.infer<typeof bankExportSchema>;

export const exportPayoutsResponse = z.object({
  export: bankExportSchema.nullable().describe('null: no payout was due'),
  /** The pain.001.001.03 file to upload to the bank (GET /api/ops/bank/exports/:id gives it again). */
  xml: z.string().nullable(),
  /** Due payouts left out of the file, and why (no_iban: nobody knows the payer's IBAN; invalid_iban). */
  skipped: z.array(z.object({ payoutId: z.string().uuid(), reason: z.string() })),
});
export type ExportPayoutsResponse = z.infer<typeof exportPayoutsResponse>;

export const bankExportsQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(50) });
export const bankExportsResponse = z.object({ exports: z.array(bankExportSchema) });
export type BankExportsResponse = z.infer<typeof bankExportsResponse>;
export const bankExportParams = z.object({ id: z.string().uuid() });
/** GET /api/ops/bank/exports/:id: the pain.001 file itself (application/xml). */
export const bankExportFileResponse = z.string().describe('The pain.001.001.03 file, as it was made');

/** GET /api/ops/bank/returns: payouts the payee's bank sent back, waiting for the customer to give another IBAN, oldest first. */
export const payoutReturnsAwaitingResponse = z.object({
  returns: z.array(
    z.object({
      id: z.string(),
      payoutId: z.string(),
      orderReference: z.string(),
      anonymous: z.boolean().describe('No account: the customer gives the IBAN through the emailed link'),
      amount: z.string().describe('EUR owed again'),
      reason: z.string().nullable().describe('ISO return reason code (AC04 …)'),
      reasonInfo: z.string().nullable(),
      returnedAt: z.string(),
      linkExpiresAt: z.string().nullable(),
    }),
  ),
});
export type PayoutReturnsAwaitingResponse = z.infer<typeof payoutReturnsAwaitingResponse>;

/** POST /api/ops/bank/returns/{id}/link: a new link is emailed to the order's address. */
export const payoutReturnLinkResponse = z.object({ orderReference: z.string() });
