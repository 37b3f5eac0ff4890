import { z } from 'zod';
import { AUDIT_BREAKS } from '../audit';

/**
 * The audit trail under /api/ops/audit (scope admin:muntly): `npm run ops -- audit` and
 * `audit:verify`, and the operator's console, are its clients. Rows are listed newest first.
 */
const day = /^\d{4}-\d{2}-\d{2}$/;
/** A date (a whole day, UTC) or an ISO date-time. */
const when = z
  .string()
  .max(40)
  .refine(
    (value) => (day.test(value) || value.includes('T')) && !Number.isNaN(Date.parse(value)),
    'A date like 2026-11-24 or a date-time like 2026-11-24T09:30:00Z.',
  );

export const auditQuery = z.object({
  actor: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Who acted: an operator's token subject, 'retention', or account:<accountKey>"),
  action: z
    .string()
    .regex(/^[a-z_]+(\.[a-z_]+)*\.?$/, 'An action code like faucet.fund, or a group like faucet.')
    .max(64)
    .optional()
    .describe('An action code (faucet.fund), or every action of a group when it ends with a dot (faucet.)'),
  target: z.string().min(1).max(200).optional().describe('An account key, order reference, payout id …'),
  from: when.optional().describe('From this date (inclusive, UTC) or date-time'),
  to: when.optional().describe('Until this date (inclusive, the whole day, UTC) or date-time (exclusive)'),
  cursor: z.coerce.number().int().min(1).optional().describe('nextCursor of the previous page: rows older than it'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});
export type AuditQuery = z.input<typeof auditQuery>;
/** The filters of a list and of the CSV export (which has no paging: it is every matching row). */
export type AuditFilter = Omit<z.output<typeof auditQuery>, 'cursor' | 'limit'>;

const stateSchema = z.record(z.string(), z.unknown()).nullable();

export const auditEntrySchema = z
  .object({
    id: z.number().int().describe('Position in the chain, from 1, without gaps'),
    at: z.string().describe('When, ISO 8601 UTC to the millisecond (the database clock)'),
    actor: z.string(),
    action: z.string(),
    target: z.string().nullable(),
    before: stateSchema.describe('The state the action changed, before it (null: none, or a read)'),
    after: stateSchema.describe('That state after it; for a read, what was read (never the data itself)'),
    prevHash: z.string().nullable().describe('hash of the row before (null for the first row)'),
    hash: z.string().describe('SHA-256 (hex) of this row with prevHash (docs/audit.md, "Audit trail")'),
  })
  .describe('One row of the audit trail');
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const auditListResponse = z.object({
  entries: z.array(auditEntrySchema),
  nextCursor: z.number().int().nullable(),
});
export type AuditListResponse = z.infer<typeof auditListResponse>;

export const auditVerifyResponse = z.object({
  ok: z.boolean(),
  rows: z.number().int().describe('Rows checked'),
  lastId: z.number().int().nullable(),
  lastHash: z.string().nullable(),
  broken: z
    .object({ id: z.number().int(), reason: z.enum(AUDIT_BREAKS), message: z.string() })
    .nullable()
    .describe('The first row that breaks the chain'),
});
export type AuditVerifyResponse = z.infer<typeof auditVerifyResponse>;
