import { apiOrigin } from '../../../config';
import type { VerificationKind, VerificationPhase } from '../../../../domain/verification';
import type { Language } from '../../../i18n/languages';

/** The identity API: GET /api/identity, POST /api/identity/:kind, POST /api/identity/:kind/confirm. */
export type KindView = {
  kind: VerificationKind;
  phase: VerificationPhase;
  channel: 'post' | 'bank' | 'sms' | 'email' | 'document';
  data: Record<string, string> | null;
  submittedAt: string | null;
  verifiedAt: string | null;
  retainUntil: string | null;
  codeExpiresAt: string | null;
  attemptsLeft: number | null;
};

/** An error answer of the API: its code, and the field it concerns. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly field?: string,
  ) {
    super(code);
  }
}

async function call(token: string, language: Language, path: string, body?: unknown): Promise<KindView[]> {
  const response = await fetch(`${apiOrigin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      // The language of messages the API sends (the code by email, SMS, letter).
      'accept-language': language,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json().catch(() => ({}))) as { kinds?: KindView[]; error?: { code: string; field?: string } };
  if (!response.ok || !payload.kinds) throw new ApiFailure(response.status, payload.error?.code ?? 'generic', payload.error?.field);
  return payload.kinds;
}

export const getIdentity = (token: string, language: Language) => call(token, language, '/api/identity');
export const submitStepOne = (token: string, language: Language, kind: VerificationKind, data: Record<string, unknown>) =>
  call(token, language, `/api/identity/${kind}`, data);
export const confirmCode = (token: string, language: Language, kind: VerificationKind, code: string) =>
  call(token, language, `/api/identity/${kind}/confirm`, { code });
