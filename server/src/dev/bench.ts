import { randomUUID } from 'node:crypto';
import { addressCounters } from '../db/schema/chain';
import type { FastifyPluginAsync } from 'fastify';

/**
 * `npm run bench:orders` compares placing an order with the cheapest possible write: this
 * endpoint inserts one row through the same stack (Fastify, drizzle, pool) and nothing else.
 * Registered only with BENCH_ROUTES=true, which production configuration refuses. The row goes
 * into a table where a key no currency has is harmless (the audit trail, which it used to fill,
 * is a chain now: a write there takes its head's lock and is no bare insert).
 */
export const benchRoutes: FastifyPluginAsync = async (app) => {
  app.post('/api/bench/insert', async (_request, reply) => {
    await app.db.insert(addressCounters).values({ currency: `bench:${randomUUID()}`, nextIndex: 0 });
    return reply.code(201).send({ ok: true });
  });
};
