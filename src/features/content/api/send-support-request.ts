import { publicRequest } from './public-api';
import type { SupportBody, SupportReceipt } from '#domain/contracts/support';
import type { Language } from '#domain/languages';
import type { SupportRequestInput } from '#domain/support';

/**
 * POST /api/support: the fetcher and its answer. The form's schema (shared with the API) is in
 * support-resolver.ts, loaded when the form is first checked.
 */
export type SupportFormValues = SupportRequestInput;
export type { SupportReceipt };

export const sendSupportRequest = (language: Language, values: SupportFormValues) =>
  publicRequest<SupportReceipt>(language, '/api/support', {
    ...values,
    orderReference: values.orderReference?.trim() ? values.orderReference : undefined,
  } satisfies SupportBody);
