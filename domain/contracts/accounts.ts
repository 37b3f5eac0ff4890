import { z } from 'zod';
import { VERIFICATION_KINDS, VERIFICATION_PHASES, type VerificationKind } from '../verification';

/** GET /api/me: the logged-in user's account (created on first use). */
const phase = z.enum(VERIFICATION_PHASES);
export const meSchema = z.object({
  accountKey: z.string().describe('Short key used in the deposit reference'),
  depositReference: z.string().describe('DEPOSIT + accountKey: the payment reason for deposits'),
  depositLimitEur: z.string().describe('Largest EUR deposit accepted, decimal string'),
  email: z.string().nullable(),
  displayName: z.string().nullable(),
  verification: z.object(
    Object.fromEntries(VERIFICATION_KINDS.map((k) => [k, phase])) as Record<VerificationKind, typeof phase>,
  ),
});
export type Me = z.infer<typeof meSchema>;
