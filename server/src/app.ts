import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import type { Config } from './config';
import { securityPlugin } from './plugins/security';
import { sitePlugin } from './plugins/site';

/** Builds the server: external concerns first, then the site. The API joins here later. */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    bodyLimit: 100 * 1024,
    // Requests are traced by id in the logs; the id is echoed for support.
    requestIdHeader: 'x-request-id',
    // Malformed URLs and headers get the same error shape as everything else.
    frameworkErrors: (_error, _request, reply) => {
      void (reply as FastifyReply)
        .code(400)
        .send({ error: { code: 'bad_request', message: 'The request could not be understood.' } });
    },
  });
  // DESIGN.md section 5: `{ error: { code, message } }`, never a stack trace.
  app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unhandled error');
    const code = status === 413 ? 'payload_too_large' : status === 500 ? 'internal_error' : 'bad_request';
    const message =
      status === 413 ? 'The request body is too large.' : status === 500 ? 'Something went wrong on our side.' : 'The request could not be understood.';
    return reply.code(status).send({ error: { code, message } });
  });
  await app.register(compress, { global: true, threshold: 1024 });
  await app.register(securityPlugin);
  await app.register(sitePlugin, { publicDir: config.PUBLIC_DIR });
  return app;
}
