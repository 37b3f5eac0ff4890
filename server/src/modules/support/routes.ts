import rateLimit from '@fastify/rate-limit';
import { serviceStatusSchema, supportBody, supportReceiptSchema } from '#domain/contracts/support';
import { emailLinkKey } from '#domain/customer-key';
import { emailKey } from '#domain/email';
import { codeIn, DomainError, secondsToWait } from '#domain/errors';
import { supportRequestSchema, SUPPORT_FIELD_ERRORS } from '#domain/support';
import { RateLimited } from '../../errors';
import { takeLimits, type Limit } from '../../limits';
import { errorResponses } from '../../schemas';
import { requestLanguage } from '../notify/service';
import { submitSupportRequest, serviceStatus } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Limits of the support form per client address: enough for a person, too few for a spammer. */
export const SUPPORT_RATE_LIMIT = { max: 5, timeWindow: '10 minutes' } as const;
/**
 * Each message mails a confirmation to the address the form names: per sender address (its link
 * key, so no spelling starts a new count), counted in the database every replica shares, so that
 * a stranger cannot fill someone's inbox from many addresses or through many replicas.
 */
export const SUPPORT_SENDER_LIMIT: Limit = { name: 'support-sender', max: 5, windowMs: 10 * 60_000 };

/**
 * POST /api/support: the support and contact form (anyone, rate-limited), validated by the same
 * schema as the form, answered with a ticket number. GET /api/status: the live state of the API,
 * the database and the workers, for the status page.
 */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new RateLimited(secondsToWait(context.ttl)),
  });

  app.post(
    '/api/support',
    {
      config: { rateLimit: SUPPORT_RATE_LIMIT },
      schema: {
        operationId: 'sendSupportMessage',
        tags: ['support'],
        summary:
          'Send a message to Muntly support (rate-limited); the sender gets a confirmation email in the page language',
        body: supportBody,
        response: { 201: supportReceiptSchema, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const parsed = supportRequestSchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? '');
        const code = codeIn(issue.message, SUPPORT_FIELD_ERRORS) ?? 'validation_failed';
        throw new DomainError(code, field || undefined);
      }
      const taken = await takeLimits(app.db, [
        { limit: SUPPORT_SENDER_LIMIT, subject: emailLinkKey(emailKey(parsed.data.email)) },
      ]);
      const result = await submitSupportRequest(
        app.db,
        parsed.data,
        requestLanguage(request.headers['accept-language']),
      ).catch(async (error: unknown) => {
        await taken.release();
        throw error;
      });
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/api/status',
    {
      schema: {
        operationId: 'getStatus',
        tags: ['support'],
        summary: 'Live status of the API, the database and the workers (for the status page)',
        response: { 200: serviceStatusSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return serviceStatus(app.db, () => app.database.ready());
    },
  );
};
