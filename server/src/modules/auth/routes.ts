import { authConfigSchema } from '#domain/contracts/auth';
import { chainNetwork } from '#domain/networks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The login settings the site's islands need (domain/contracts/auth.ts says why at run time). */
export const authRoutes: FastifyPluginAsyncZod<{ domain: string; clientId: string; audience: string }> = async (
  app,
  options,
) => {
  app.get(
    '/api/auth/config',
    {
      schema: {
        operationId: 'getAuthConfig',
        tags: ['auth'],
        summary: 'Login settings for the site',
        response: { 200: authConfigSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        domain: options.domain,
        clientId: options.clientId,
        audience: options.audience,
        scope: 'openid profile email use:muntly',
        chainNetwork: chainNetwork(),
      };
    },
  );
};
