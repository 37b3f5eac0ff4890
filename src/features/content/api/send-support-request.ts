import { publicRequest } from './public-api';
import type { Language } from '../../../i18n/languages';
import { supportRequestSchema, type SupportRequestInput } from '../../../../domain/support';

/** POST /api/support: the form's schema (shared with the API), the fetcher, its answer. */
export { supportRequestSchema };
export type SupportFormValues = SupportRequestInput;
export type SupportReceipt = { ticket: string };

export const sendSupportRequest = (language: Language, values: SupportFormValues) =>
  publicRequest<SupportReceipt>(language, '/api/support', {
    ...values,
    orderReference: values.orderReference?.trim() ? values.orderReference : undefined,
  });
