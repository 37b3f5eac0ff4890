import { timingSafeEqual } from 'node:crypto';
import { CODE_MAX_ATTEMPTS } from '#domain/identity';
import type { ErrorCode } from '#domain/errors';

/**
 * The rule every emailed/SMS/posted code follows (identity step 2, wallet sends): it expires, and
 * 5 wrong attempts kill it. Callers store hashes only, lock the code's row, persist a wrong
 * attempt before answering, and mark a valid code used.
 */
export type CodeVerdict =
  { kind: 'valid' } | { kind: 'expired' } | { kind: 'dead' } | { kind: 'wrong'; attempts: number; dead: boolean };

export function judgeCode(
  stored: { hash: string; attempts: number; expiresAt: Date },
  candidateHash: string,
): CodeVerdict {
  if (stored.expiresAt.getTime() <= Date.now()) return { kind: 'expired' };
  if (stored.attempts >= CODE_MAX_ATTEMPTS) return { kind: 'dead' };
  if (timingSafeEqual(Buffer.from(stored.hash, 'hex'), Buffer.from(candidateHash, 'hex'))) return { kind: 'valid' };
  const attempts = stored.attempts + 1;
  return { kind: 'wrong', attempts, dead: attempts >= CODE_MAX_ATTEMPTS };
}

/** The refusal of a code: its error code (domain/errors.ts gives the status) and the attempts left. */
export function codeRefusal(verdict: Exclude<CodeVerdict, { kind: 'valid' }>): { code: ErrorCode; message?: string } {
  if (verdict.kind === 'expired') return { code: 'code_expired' };
  if (verdict.kind === 'dead' || verdict.dead) return { code: 'code_attempts_exceeded' };
  const left = CODE_MAX_ATTEMPTS - verdict.attempts;
  return { code: 'invalid_code', message: `Wrong code. ${left} ${left === 1 ? 'attempt' : 'attempts'} left.` };
}
