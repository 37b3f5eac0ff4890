import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../schemas';

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/health',
    { schema: { tags: ['health'], summary: 'Liveness: the process is up', response: { 200: z.object({ status: z.literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );
  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['health'],
        summary: 'Readiness: the database answers and every migration is applied',
        response: { 200: z.object({ status: z.literal('ready'), database: z.string() }), ...errorResponses(503) },
      },
    },
    async (_request, reply) => {
      if (await app.database.ready()) return { status: 'ready' as const, database: app.database.kind };
      return reply.code(503).send({ error: { code: 'try_again_soon', message: 'The database is not ready.' } });
    },
  );
};
