/**
 * How long one-time codes live, and the bank verification's transfer: the rules the server
 * applies and the identity page states. Apart from domain/identity.ts (which re-exports them) so
 * that the page's first load does not carry its schemas and phone number rules.
 */
import type { StepTwoChannel } from './identity';

/** Verification codes: single use, valid 10 minutes, 5 wrong attempts kill them. */
export const CODE_TTL_MINUTES = 10;
/**
 * How long a step 2 code lives, by the way it travels. The spec's 10 minutes fits SMS and email; a
 * letter or a bank transfer takes days to arrive, so those codes live longer (docs/deviations.md).
 * The server gives codes this life and the identity page says it, in the page's language.
 */
export const STEP_TWO_CODE_VALIDITY = {
  sms: { count: CODE_TTL_MINUTES, unit: 'minute' },
  email: { count: CODE_TTL_MINUTES, unit: 'minute' },
  post: { count: 30, unit: 'day' },
  bank: { count: 14, unit: 'day' },
} as const satisfies Record<Exclude<StepTwoChannel, 'document'>, { count: number; unit: 'minute' | 'day' }>;

/** A step 2 code's life in milliseconds. */
export function stepTwoCodeTtlMs(channel: keyof typeof STEP_TWO_CODE_VALIDITY): number {
  const { count, unit } = STEP_TWO_CODE_VALIDITY[channel];
  return count * (unit === 'minute' ? 60_000 : 86_400_000);
}

/** The bank verification's transfer, which carries the code in its payment reason (EUR). */
export const VERIFICATION_TRANSFER_EUR = '0.01';
