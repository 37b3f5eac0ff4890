import { z } from 'zod';

/**
 * What every API route shares: the error body (docs/decisions/0003) and the Idempotency-Key
 * header. Pure zod, like the rest of domain/contracts: the API validates and documents with these
 * schemas, the site imports only their types.
 */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    field: z.string().optional(),
    retryAfter: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Seconds until the request may succeed (a limit that lifts with time); also the Retry-After header.'),
  }),
});

/** POST /api/orders and POST /api/wallet/sends: a retry with the same key gets the same answer. */
export const idempotencyHeaders = z.object({ 'idempotency-key': z.string().min(1).max(100).optional() }).passthrough();
