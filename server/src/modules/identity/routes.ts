import { confirmCodeBody, identityKindParams, identityResponse, stepOneBody } from '../../../../domain/contracts/identity';
import { errorResponses } from '../../schemas';
import { requestLanguage } from '../notify/service';
import { describeIdentity, parseStepOne, submitStepOne, confirmCode } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The logged-in user's own identity verification; no route takes another user's id. */
export const identityRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/identity',
    {
      onRequest: app.withAccount,
      schema: { tags: ['identity'], summary: 'Your verifications: phase per kind, your data', security: [{ bearer: [] }], response: { 200: identityResponse, ...errorResponses(401, 403) } },
    },
    async (request) => {
      const account = request.account!;
      return { kinds: await describeIdentity(app.db, account.id) };
    },
  );

  app.post(
    '/api/identity/:kind',
    {
      onRequest: app.withAccount,
      schema: {
        tags: ['identity'],
        summary: 'Step 1: submit the data of a kind; the code is sent through its channel',
        description: 'address/id: person data; bank: iban, beneficiary; business: businessName, businessNumber, businessCountry; mobile: mobile.',
        security: [{ bearer: [] }],
        params: identityKindParams,
        body: stepOneBody,
        response: { 200: identityResponse, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { kind } = request.params;
      const data = parseStepOne(kind, request.body);
      const account = request.account!;
      await submitStepOne(app.db, { account, kind, data, language: requestLanguage(request.headers['accept-language']) });
      app.forgetAccountSummary(request.auth!.issuer, request.auth!.subject);
      return { kinds: await describeIdentity(app.db, account.id) };
    },
  );

  app.post(
    '/api/identity/:kind/confirm',
    {
      onRequest: app.withAccount,
      schema: {
        tags: ['identity'],
        summary: 'Step 2: the code (ABCD-EFGH-IJKL-MNOP, any case, dashes optional)',
        security: [{ bearer: [] }],
        params: identityKindParams,
        body: confirmCodeBody,
        response: { 200: identityResponse, ...errorResponses(400, 401, 403, 409, 429) },
      },
    },
    async (request) => {
      const { kind } = request.params;
      const account = request.account!;
      await confirmCode(app.db, { account, kind, code: request.body.code });
      app.forgetAccountSummary(request.auth!.issuer, request.auth!.subject);
      return { kinds: await describeIdentity(app.db, account.id) };
    },
  );
};
