import { ID_VERIFICATION_WEEKLY_EUR_MINOR, MOBILE_VERIFICATION_WEEKLY_EUR_MINOR } from './limits';
import type { VerificationKind, VerificationPhase } from './verification';

/**
 * Which verifications an activity needs (spec section 6). The wallet and exchange call these;
 * they decide from the phases the database holds, never from what a client claims.
 */
export type Phases = Partial<Record<VerificationKind, VerificationPhase>>;

export type Activity = {
  /** The wallet features (reception addresses, own-wallet options) need a verified bank account. */
  usesWallet?: boolean;
  /** EUR volume of the last 7 days including this operation, in cents. */
  weeklyEurMinor?: bigint;
  /** Paying from a business bank account needs business verification. */
  fromBusinessAccount?: boolean;
};

export function requiredVerifications(activity: Activity): VerificationKind[] {
  const required: VerificationKind[] = [];
  if (activity.usesWallet) required.push('bank');
  const weekly = activity.weeklyEurMinor ?? 0n;
  if (weekly > MOBILE_VERIFICATION_WEEKLY_EUR_MINOR) required.push('mobile');
  if (weekly > ID_VERIFICATION_WEEKLY_EUR_MINOR) required.push('id');
  if (activity.fromBusinessAccount) required.push('business');
  return required;
}

/** The verifications the activity needs that are not verified yet (empty: allowed). */
export function missingVerifications(phases: Phases, activity: Activity): VerificationKind[] {
  return requiredVerifications(activity).filter((kind) => phases[kind] !== 'verified');
}
