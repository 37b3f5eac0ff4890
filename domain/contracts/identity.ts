import { z } from 'zod';
import { STEP_TWO_CHANNELS } from '../identity';
import { VERIFICATION_KINDS, VERIFICATION_PHASES, VERIFICATION_REJECTION_REASONS } from '../verification';

/**
 * The logged-in user's own identity verification: GET /api/identity, POST /api/identity/:kind
 * (step 1), POST /api/identity/:kind/confirm (step 2), POST /api/identity/:kind/request (ask the
 * operator to enable a kind). Every one answers the whole list.
 */
export const identityKindSchema = z.object({
  kind: z.enum(VERIFICATION_KINDS),
  phase: z.enum(VERIFICATION_PHASES),
  channel: z.enum(STEP_TWO_CHANNELS).describe('How step 2 reaches the user'),
  // What step 1 stored, as JSON. The API promises an object and nothing about its values, so
  // the site checks that a value is text before it shows it or puts it back into a form.
  data: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('Step 1 data; only ever shown to its owner and operators'),
  requestedAt: z.string().nullable().describe('When the user asked for this kind to be enabled (null: never asked)'),
  submittedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  retainUntil: z.string().nullable().describe('AML retention: kept at least until this date'),
  dataDeletedAt: z.string().nullable().describe('When the data was deleted because its retention date had passed'),
  rejection: z
    .object({ reason: z.enum(VERIFICATION_REJECTION_REASONS), at: z.string() })
    .nullable()
    .describe('An operator sent the details back to step 1, and why (shown until the details are submitted again)'),
  codeExpiresAt: z.string().nullable(),
  nextCodeAt: z.string().nullable().describe('Step 1 sends a new code no sooner than this (null: now)'),
  attemptsLeft: z.number().nullable(),
});
export type IdentityKind = z.infer<typeof identityKindSchema>;

export const identityResponse = z.object({ kinds: z.array(identityKindSchema) });
export type IdentityResponse = z.infer<typeof identityResponse>;

export const identityKindParams = z.object({ kind: z.enum(VERIFICATION_KINDS) });

/** Step 1: checked per kind by STEP_ONE_SCHEMAS (domain/identity.ts) in the handler, so it names the field. */
export const stepOneBody = z.record(z.string(), z.unknown());
export type StepOneBody = z.infer<typeof stepOneBody>;

export const confirmCodeBody = z.object({ code: z.string().max(64) });
export type ConfirmCodeBody = z.infer<typeof confirmCodeBody>;

/**
 * POST /api/identity/:kind/request: asks the operator to enable a kind. `created` is false when
 * nothing new happened: the kind was already requested (the first request stands) or is enabled.
 */
export const verificationRequestResponse = z.object({
  kind: z.enum(VERIFICATION_KINDS),
  requestedAt: z.string().nullable(),
  created: z.boolean(),
  kinds: z.array(identityKindSchema),
});
export type VerificationRequestResponse = z.infer<typeof verificationRequestResponse>;
