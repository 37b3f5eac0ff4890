import '../../app/zod-jitless';
import { zodResolver } from '@hookform/resolvers/zod';
import { supportRequestSchema } from '#domain/support';
import type { SupportFormValues } from './api/send-support-request';
import type { Resolver } from 'react-hook-form';

/**
 * The support form's checks: the API's own schema (domain/support.ts). In a chunk of its own with
 * zod, loaded when the form is first checked (app/form-rules.ts, lazyResolver).
 */
export const supportResolver = zodResolver(supportRequestSchema as never) as unknown as Resolver<SupportFormValues>;
