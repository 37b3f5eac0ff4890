import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../schemas';
import { operate } from './service';

/**
 * Operator actions on the faucet (`npm run ops -- faucet pause|resume|fund <eur>|status`).
 * Registered inside the ops routes, so they inherit the admin:muntly check. Pausing lets the
 * current round finish (its players were promised a draw), then the faucet shows GAME OVER.
 */
const statusSchema = z.object({
  paused: z.boolean(),
  budgetEur: z.string().describe('Budget left, EUR'),
  round: z.object({ id: z.number().int(), state: z.string() }).nullable(),
});
const actorOf = (request: { auth?: { issuer: string; subject: string } }) => `${request.auth?.issuer ?? ''}${request.auth?.subject ?? ''}`;

export const faucetOpsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/ops/faucet',
    { schema: { tags: ['ops'], summary: 'Faucet: paused?, budget left, current round', security: [{ bearer: [] }], response: { 200: statusSchema, ...errorResponses(401, 403) } } },
    async (request) => operate(app.db, app.faucet.settings, { kind: 'status' }, actorOf(request)),
  );

  app.post(
    '/api/ops/faucet/:action',
    {
      schema: {
        tags: ['ops'],
        summary: 'Faucet: pause (GAME OVER after the current round) or resume',
        security: [{ bearer: [] }],
        params: z.object({ action: z.enum(['pause', 'resume']) }),
        response: { 200: statusSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const result = await operate(app.db, app.faucet.settings, { kind: request.params.action }, actorOf(request));
      app.faucet.events.poke();
      return result;
    },
  );

  app.post(
    '/api/ops/faucet/fund',
    {
      schema: {
        tags: ['ops'],
        summary: 'Faucet: add budget in EUR (a spent-out faucet starts again)',
        security: [{ bearer: [] }],
        body: z.object({ eur: z.string().max(20) }),
        response: { 200: statusSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => operate(app.db, app.faucet.settings, { kind: 'fund', eur: request.body.eur }, actorOf(request)),
  );
};
