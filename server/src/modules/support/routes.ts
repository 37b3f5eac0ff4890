import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import { errorResponses } from '../../schemas';
import { ApiError } from '../../errors';
import { requestLanguage } from '../notify/service';
import { submitSupportRequest, serviceStatus } from './service';
import { supportRequestSchema, SUPPORT_FIELD_ERRORS, SUPPORT_TOPICS } from '../../../../domain/support';
import type { ErrorCode } from '../../../../domain/errors';

const workerSchema = z.object({ status: z.enum(['ok', 'delayed', 'unknown']), waiting: z.number(), delayed: z.number() });

/** Limits of the support form per client address: enough for a person, too few for a spammer. */
export const SUPPORT_RATE_LIMIT = { max: 5, timeWindow: '10 minutes' } as const;

/**
 * POST /api/support: the support and contact form (anyone, rate-limited), validated by the same
 * schema as the form, answered with a ticket number. GET /api/status: the live state of the API,
 * the database and the workers, for the status page.
 */
export const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => Object.assign(new Error('rate limited'), { statusCode: 429 }),
  });

  app.post(
    '/api/support',
    {
      config: { rateLimit: SUPPORT_RATE_LIMIT },
      schema: {
        tags: ['support'],
        summary: 'Send a message to Muntly support (rate-limited); the sender gets a confirmation email in the page language',
        body: z.object({
          name: z.string().max(1000),
          email: z.string().max(1000),
          topic: z.string().max(50).describe(SUPPORT_TOPICS.join(', ')),
          message: z.string().max(20_000),
          orderReference: z.string().max(100).optional(),
        }),
        response: { 201: z.object({ ticket: z.string() }), ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const parsed = supportRequestSchema.safeParse(request.body);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        const field = String(issue.path[0] ?? '');
        const code = (SUPPORT_FIELD_ERRORS as readonly string[]).includes(issue.message) ? (issue.message as ErrorCode) : 'validation_failed';
        throw new ApiError(400, code, field || undefined);
      }
      const result = await submitSupportRequest(app.db, parsed.data, requestLanguage(request.headers['accept-language']));
      return reply.code(201).send(result);
    },
  );

  app.get(
    '/api/status',
    {
      schema: {
        tags: ['health'],
        summary: 'Live status of the API, the database and the workers (for the status page)',
        response: {
          200: z.object({
            api: z.literal('ok'),
            database: z.enum(['ok', 'down']),
            workers: z.object({ orders: workerSchema, payouts: workerSchema }),
            checkedAt: z.string(),
          }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return serviceStatus(app.db, () => app.database.ready());
    },
  );
};
