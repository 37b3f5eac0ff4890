/**
 * Identity verification kinds and phases (docs/decisions/0007). Each list is the one source of its
 * TypeScript type, the API's zod enum and the database column with its check constraint.
 */
export const VERIFICATION_KINDS = ['address', 'bank', 'business', 'id', 'mobile'] as const;
export type VerificationKind = (typeof VERIFICATION_KINDS)[number];
export const VERIFICATION_PHASES = ['not_enabled', 'step_1', 'step_2', 'verified'] as const;
export type VerificationPhase = (typeof VERIFICATION_PHASES)[number];

/**
 * Why an operator sends a verification back to step 1 (the customer sees the reason on their
 * identity page and in an email, in their language: locales/<lng>/identity.json `rejection.*`).
 * The customer corrects it and submits again.
 */
export const VERIFICATION_REJECTION_REASONS = ['unreadable', 'expired', 'mismatch', 'incomplete'] as const;
export type VerificationRejectionReason = (typeof VERIFICATION_REJECTION_REASONS)[number];
