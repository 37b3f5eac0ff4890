import { z } from 'zod';
import { SUPPORT_TOPICS } from '../support';

/**
 * POST /api/support (the support and contact form) and GET /api/status (the status page).
 * The body here only bounds the sizes: the handler checks it with the form's own schema
 * (supportRequestSchema in domain/support.ts), which names the field and the error code.
 */
export const supportBody = z.object({
  name: z.string().max(1000),
  email: z.string().max(1000),
  topic: z.string().max(50).describe(SUPPORT_TOPICS.join(', ')),
  message: z.string().max(20_000),
  orderReference: z.string().max(100).optional(),
});
export type SupportBody = z.infer<typeof supportBody>;

export const supportReceiptSchema = z.object({ ticket: z.string() });
export type SupportReceipt = z.infer<typeof supportReceiptSchema>;

const workerSchema = z.object({
  status: z.enum(['ok', 'delayed', 'unknown']),
  waiting: z.number(),
  delayed: z.number(),
});
export type WorkerStatus = z.infer<typeof workerSchema>;

/** orders: paid orders waiting to be converted; payouts: sends, deliveries and refunds waiting to be paid out. */
export const serviceStatusSchema = z.object({
  api: z.literal('ok'),
  database: z.enum(['ok', 'down']),
  workers: z.object({ orders: workerSchema, payouts: workerSchema }),
  checkedAt: z.string(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;
