import { apiRequest, ApiFailure } from '../../../app/api';
import type {
  ConfirmCodeBody,
  IdentityKind,
  IdentityResponse,
  StepOneBody,
  VerificationRequestResponse,
} from '#domain/contracts/identity';
import type { Language } from '#domain/languages';
import type { VerificationKind } from '#domain/verification';

/** The identity API: GET /api/identity, POST /api/identity/:kind, POST /api/identity/:kind/confirm, POST /api/identity/:kind/request. */
export type { IdentityKind };

export { ApiFailure };

export const getIdentity = async (token: string, language: Language) =>
  (await apiRequest<IdentityResponse>(token, language, '/api/identity')).kinds;
export const submitStepOne = async (token: string, language: Language, kind: VerificationKind, data: StepOneBody) =>
  (await apiRequest<IdentityResponse>(token, language, `/api/identity/${kind}`, { body: data })).kinds;
export const confirmCode = async (token: string, language: Language, kind: VerificationKind, code: string) =>
  (
    await apiRequest<IdentityResponse>(token, language, `/api/identity/${kind}/confirm`, {
      body: { code } satisfies ConfirmCodeBody,
    })
  ).kinds;
export const requestVerification = async (token: string, language: Language, kind: VerificationKind) =>
  (await apiRequest<VerificationRequestResponse>(token, language, `/api/identity/${kind}/request`, { method: 'POST' }))
    .kinds;

/**
 * The text fields of step 1's data. The API promises an object and nothing about its values, so
 * only text is shown or put back into a form.
 */
export function textFields(data: IdentityKind['data']): Record<string, string> {
  return Object.fromEntries(
    Object.entries(data ?? {}).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
    ),
  );
}
