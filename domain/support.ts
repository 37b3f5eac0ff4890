import { z } from 'zod';
import { normalizeCode } from './codes';
import { SUPPORT_TOPICS } from './support-topics';
import type { ErrorCode } from './errors';

/**
 * The support and contact form: the same schema validates in the browser and in the API
 * (POST /api/support). Error messages are error codes (domain/errors.ts); the site translates
 * them. A request lands in the support mailbox through the outbox, and the sender gets a
 * confirmation in the page language.
 */
export { SUPPORT_MAILBOX } from './contact';

export { SUPPORT_TOPICS, type SupportTopic } from './support-topics';

/**
 * The privacy policy's promise: support messages are kept at most two years, unless they belong
 * to the records of an order (then as long as those: AML, RETENTION_YEARS in domain/identity.ts).
 */
export const SUPPORT_RETENTION_YEARS = 2;

export const SUPPORT_MESSAGE_MIN = 20;
export const SUPPORT_MESSAGE_MAX = 5000;

const optionalReference = z
  .string()
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return undefined;
    const code = normalizeCode(value);
    if (!code) {
      ctx.addIssue({ code: 'custom', message: 'invalid_reference' });
      return z.NEVER;
    }
    return code;
  });

export const supportRequestSchema = z.object({
  name: z.string().trim().min(1, 'required').max(100, 'too_long'),
  email: z.string().trim().toLowerCase().min(1, 'required').pipe(z.email('invalid_email').max(254, 'too_long')),
  topic: z.enum(SUPPORT_TOPICS, { message: 'required' }),
  message: z
    .string()
    .trim()
    .min(1, 'required')
    .min(SUPPORT_MESSAGE_MIN, 'too_short')
    .max(SUPPORT_MESSAGE_MAX, 'too_long'),
  orderReference: optionalReference,
});

export type SupportRequestInput = z.input<typeof supportRequestSchema>;
export type SupportRequest = z.output<typeof supportRequestSchema>;

/** The field error codes the schema can give (the API answers them with `field`). */
export const SUPPORT_FIELD_ERRORS = [
  'required',
  'too_long',
  'too_short',
  'invalid_email',
  'invalid_reference',
] as const satisfies readonly ErrorCode[];
