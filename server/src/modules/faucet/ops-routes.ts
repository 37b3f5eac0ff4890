import { faucetActionParams, faucetFundBody, faucetStatusSchema } from '#domain/contracts/faucet';
import { errorResponses } from '../../schemas';
import { actorOf } from '../audit/service';
import { operate } from './operator';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Operator actions on the faucet (`npm run ops -- faucet pause|resume|fund <eur>|status`).
 * Like every route under /api/ops they need the admin:muntly scope. Pausing lets the
 * current round finish (its players were promised a draw), then the faucet shows GAME OVER.
 */
export const faucetOpsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));
  app.get(
    '/api/ops/faucet',
    {
      schema: {
        operationId: 'opsGetFaucet',
        tags: ['faucet'],
        summary: 'Faucet: paused?, budget left, current round',
        security: [{ bearer: [] }],
        response: { 200: faucetStatusSchema, ...errorResponses(401, 403) },
      },
    },
    async (request) => operate(app.db, app.faucet.settings, { kind: 'status' }, actorOf(request)),
  );

  app.post(
    '/api/ops/faucet/:action',
    {
      schema: {
        operationId: 'opsSetFaucetState',
        tags: ['faucet'],
        summary: 'Faucet: pause (GAME OVER after the current round) or resume',
        security: [{ bearer: [] }],
        params: faucetActionParams,
        response: { 200: faucetStatusSchema, ...errorResponses(400, 401, 403) },
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
        operationId: 'opsFundFaucet',
        tags: ['faucet'],
        summary: 'Faucet: add budget in EUR (a spent-out faucet starts again)',
        security: [{ bearer: [] }],
        body: faucetFundBody,
        response: { 200: faucetStatusSchema, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => operate(app.db, app.faucet.settings, { kind: 'fund', eur: request.body.eur }, actorOf(request)),
  );
};
