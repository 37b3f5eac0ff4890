import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ensureAccount } from '../accounts/service';
import { describeIdentity, parseStepOne, submitStepOne, confirmCode } from './service';
import { requestLanguage } from '../notify/service';
import { errorResponses } from '../../schemas';
import { VERIFICATION_KINDS, VERIFICATION_PHASES } from '../../../../domain/verification';

const kindView = z.object({
  kind: z.enum(VERIFICATION_KINDS),
  phase: z.enum(VERIFICATION_PHASES),
  channel: z.enum(['post', 'bank', 'sms', 'email', 'document']).describe('How step 2 reaches the user'),
  data: z.record(z.string(), z.unknown()).nullable().describe('Step 1 data; only ever shown to its owner and operators'),
  submittedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
  retainUntil: z.string().nullable().describe('AML retention: kept at least until this date'),
  dataDeletedAt: z.string().nullable().describe('When the data was deleted because its retention date had passed'),
  codeExpiresAt: z.string().nullable(),
  attemptsLeft: z.number().nullable(),
});
export const identitySchema = z.object({ kinds: z.array(kindView) });
const kindParams = z.object({ kind: z.enum(VERIFICATION_KINDS) });

/** The logged-in user's own identity verification; no route takes another user's id. */
export const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/identity',
    {
      onRequest: app.authenticate,
      schema: { tags: ['identity'], summary: 'Your verifications: phase per kind, your data', security: [{ bearer: [] }], response: { 200: identitySchema, ...errorResponses(401, 403) } },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      return { kinds: await describeIdentity(app.db, account.id) };
    },
  );

  app.post(
    '/api/identity/:kind',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['identity'],
        summary: 'Step 1: submit the data of a kind; the code is sent through its channel',
        description: 'address/id: person data; bank: iban, beneficiary; business: businessName, businessNumber, businessCountry; mobile: mobile.',
        security: [{ bearer: [] }],
        params: kindParams,
        body: z.record(z.string(), z.unknown()),
        response: { 200: identitySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { kind } = request.params;
      const data = parseStepOne(kind, request.body);
      const account = await ensureAccount(app.db, request.auth!);
      await submitStepOne(app.db, { account, kind, data, language: requestLanguage(request.headers['accept-language']) });
      app.forgetAccountSummary(request.auth!.issuer, request.auth!.subject);
      return { kinds: await describeIdentity(app.db, account.id) };
    },
  );

  app.post(
    '/api/identity/:kind/confirm',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['identity'],
        summary: 'Step 2: the code (ABCD-EFGH-IJKL-MNOP, any case, dashes optional)',
        security: [{ bearer: [] }],
        params: kindParams,
        body: z.object({ code: z.string().max(64) }),
        response: { 200: identitySchema, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { kind } = request.params;
      const account = await ensureAccount(app.db, request.auth!);
      await confirmCode(app.db, { account, kind, code: request.body.code });
      app.forgetAccountSummary(request.auth!.issuer, request.auth!.subject);
      return { kinds: await describeIdentity(app.db, account.id) };
    },
  );
};
