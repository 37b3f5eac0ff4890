/** Identity verification kinds and phases (spec section 4). */
export const VERIFICATION_KINDS = ['address', 'bank', 'business', 'id', 'mobile'] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];
export const VERIFICATION_PHASES = ['not_enabled', 'step_1', 'step_2', 'verified'] as const;
export type VerificationPhase = (typeof VERIFICATION_PHASES)[number];
