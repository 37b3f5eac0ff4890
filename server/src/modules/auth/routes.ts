import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The login settings the site's islands need, read at run time: one site build works with the
 * local identity provider on any port and with any Auth0 tenant.
 */
export const authConfigSchema = z.object({
  domain: z.string().describe('Auth0 domain (or the local provider origin, scheme included)'),
  clientId: z.string(),
  audience: z.string(),
  scope: z.string(),
});

export const authRoutes: FastifyPluginAsyncZod<{ domain: string; clientId: string; audience: string }> = async (app, options) => {
  app.get(
    '/api/auth/config',
    { schema: { tags: ['account'], summary: 'Login settings for the site', response: { 200: authConfigSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { domain: options.domain, clientId: options.clientId, audience: options.audience, scope: 'openid profile email use:muntly' };
    },
  );
};
