import rateLimit from '@fastify/rate-limit';
import {
  confirmCodeBody,
  identityKindParams,
  identityResponse,
  stepOneBody,
  verificationRequestResponse,
} from '#domain/contracts/identity';
import { DomainError, secondsToWait } from '#domain/errors';
import { sameIban } from '#domain/sepa';
import { RateLimited } from '../../errors';
import { takeLimits, type Limit } from '../../limits';
import { errorResponses } from '../../schemas';
import { requestLanguage } from '../notify/service';
import { describeIdentity, parseStepOne, submitStepOne, confirmCode, requestKind } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Asking the operator to enable a kind mails a person at Muntly: a few requests an hour per
 * account and per client address are plenty (a repeated request changes nothing anyway).
 */
export const VERIFICATION_REQUEST_RATE_LIMIT = { max: 10, timeWindow: '1 hour' } as const;
/** The same per account, counted in the database every replica shares (server/src/limits.ts). */
const VERIFICATION_REQUEST_LIMIT: Limit = {
  name: 'verification-request-account',
  max: VERIFICATION_REQUEST_RATE_LIMIT.max,
  windowMs: 3_600_000,
};

/** The logged-in user's own identity verification; no route takes another user's id. */
/** Muntly's own bank account (BANK_IBAN): never a customer's account to verify. */
export type IdentityRouteOptions = { bankIban: string };

export const identityRoutes: FastifyPluginAsyncZod<IdentityRouteOptions> = async (app, { bankIban }) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new RateLimited(secondsToWait(context.ttl)),
  });
  const requestsByClient = app.createRateLimit({
    ...VERIFICATION_REQUEST_RATE_LIMIT,
    keyGenerator: (request) => `verification-request-client:${request.ip}`,
  });

  app.get(
    '/api/identity',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'getIdentity',
        tags: ['identity'],
        summary: 'Your verifications: phase per kind, your data',
        security: [{ bearer: [] }],
        response: { 200: identityResponse, ...errorResponses(401, 403) },
      },
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
        operationId: 'submitIdentity',
        tags: ['identity'],
        summary: 'Step 1: submit the data of a kind; the code is sent through its channel',
        description:
          'address/id: person data; bank: iban, beneficiary; business: businessName, businessNumber, businessCountry; mobile: mobile.',
        security: [{ bearer: [] }],
        params: identityKindParams,
        body: stepOneBody,
        response: { 200: identityResponse, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { kind } = request.params;
      const data = parseStepOne(kind, request.body);
      // The verification pays 0.01 EUR to the IBAN, and later payouts go there: Muntly's own account
      // (in any spelling) would be verified as the customer's and pay Muntly itself.
      if (kind === 'bank' && sameIban(String(data.iban), bankIban)) throw new DomainError('muntly_iban', 'iban');
      const account = request.account!;
      await submitStepOne(app.db, {
        account,
        kind,
        data,
        language: requestLanguage(request.headers['accept-language']),
      });
      app.forgetAccountSummary(request.auth!.issuer, request.auth!.subject);
      return { kinds: await describeIdentity(app.db, account.id) };
    },
  );

  app.post(
    '/api/identity/:kind/request',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'requestVerification',
        tags: ['identity'],
        summary: 'Ask Muntly to enable a verification kind for you (the operator is mailed; rate-limited)',
        description:
          'Idempotent: asking again while the request waits, or for a kind already enabled, answers the state as it is (created: false).',
        security: [{ bearer: [] }],
        params: identityKindParams,
        response: { 200: verificationRequestResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const byClient = await requestsByClient(request);
      if (!byClient.isAllowed && byClient.isExceeded) throw new RateLimited(secondsToWait(byClient.ttl));
      await takeLimits(app.db, [{ limit: VERIFICATION_REQUEST_LIMIT, subject: request.account!.id }]);
      const { kind } = request.params;
      const account = request.account!;
      const { requestedAt, created } = await requestKind(app.db, {
        account,
        kind,
        language: requestLanguage(request.headers['accept-language']),
      });
      return {
        kind,
        requestedAt: requestedAt?.toISOString() ?? null,
        created,
        kinds: await describeIdentity(app.db, account.id),
      };
    },
  );

  app.post(
    '/api/identity/:kind/confirm',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'confirmIdentity',
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
