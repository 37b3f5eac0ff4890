import { operatorResponse } from '#domain/contracts/operator';
import type { Operator } from '#domain/operator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Who operates Muntly, from the server's configuration: one build of the site serves any operator. */
export const operatorRoutes: FastifyPluginAsyncZod<{ operator: Operator }> = async (app, { operator }) => {
  app.get(
    '/api/operator',
    {
      schema: {
        operationId: 'getOperator',
        tags: ['operator'],
        summary:
          'The company that operates Muntly (imprint, footer, terms, privacy policy), or the sample marker in local mode',
        response: { 200: operatorResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return operator;
    },
  );
};
