import { healthResponse, readyResponse } from '#domain/contracts/health';
import { sendError } from '../../errors';
import { errorResponses } from '../../schemas';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['health'],
        summary: 'Liveness: the process is up',
        response: { 200: healthResponse },
      },
    },
    async () => ({
      status: 'ok' as const,
    }),
  );
  app.get(
    '/api/ready',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'Readiness: the database answers and every migration is applied',
        response: { 200: readyResponse, ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      if (await app.database.ready()) return { status: 'ready' as const, database: app.database.kind };
      return sendError(reply, 'try_again_soon', 'The database is not ready.');
    },
  );
};
