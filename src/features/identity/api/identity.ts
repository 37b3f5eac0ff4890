import { apiRequest, ApiFailure } from '../../../components/api';
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
  /** Set when the data was deleted because its retention date had passed. */
  dataDeletedAt: string | null;
  codeExpiresAt: string | null;
  attemptsLeft: number | null;
};

export { ApiFailure };

type Identity = { kinds: KindView[] };
export const getIdentity = async (token: string, language: Language) => (await apiRequest<Identity>(token, language, '/api/identity')).kinds;
export const submitStepOne = async (token: string, language: Language, kind: VerificationKind, data: Record<string, unknown>) =>
  (await apiRequest<Identity>(token, language, `/api/identity/${kind}`, { body: data })).kinds;
export const confirmCode = async (token: string, language: Language, kind: VerificationKind, code: string) =>
  (await apiRequest<Identity>(token, language, `/api/identity/${kind}/confirm`, { body: { code } })).kinds;
