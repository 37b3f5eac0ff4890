import { auditLog } from '../db/schema';
import type { FastifyPluginAsync } from 'fastify';

/**
 * `npm run bench:orders` compares placing an order with the cheapest possible write: this
 * endpoint inserts one row through the same stack (Fastify, drizzle, pool) and nothing else.
 * Registered only with BENCH_ROUTES=true, which production configuration refuses.
 */
export const benchRoutes: FastifyPluginAsync = async (app) => {
  app.post('/api/bench/insert', async (_request, reply) => {
    await app.db.insert(auditLog).values({ actor: 'bench', action: 'bench.insert' });
    return reply.code(201).send({ ok: true });
  });
};
