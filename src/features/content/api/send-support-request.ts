import { supportRequestSchema, type SupportRequestInput } from '../../../../domain/support';
import { publicRequest } from './public-api';
import type { SupportBody, SupportReceipt } from '../../../../domain/contracts/support';
import type { Language } from '../../../../domain/languages';

/** POST /api/support: the form's schema (shared with the API), the fetcher, its answer. */
export { supportRequestSchema };
export type SupportFormValues = SupportRequestInput;
export type { SupportReceipt };

export const sendSupportRequest = (language: Language, values: SupportFormValues) =>
  publicRequest<SupportReceipt>(language, '/api/support', {
    ...values,
    orderReference: values.orderReference?.trim() ? values.orderReference : undefined,
  } satisfies SupportBody);
