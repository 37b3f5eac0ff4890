import { controlRequestsResponse, controlSubmitBody, controlSubmitResponse } from '#domain/contracts/control';
import { snapshotParams } from '#domain/contracts/liabilities';
import { errorResponses } from '../../schemas';
import { actorOf } from '../audit/service';
import { controlRequests, submitControl } from './control';
import type { LiabilitiesDeps } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The signer's side of the proofs of control (issue 32, `npm run signer -- sign-reserves <id>`):
 * what to sign for a published snapshot and the signed proofs, under /api/ops with an admin token
 * like its other calls (chain-routes.ts). The public list is GET /api/liabilities/:id/control.
 */
export const liabilitiesControlRoutes: FastifyPluginAsyncZod<LiabilitiesDeps> = async (app) => {
  app.get(
    '/api/ops/liabilities/:id/control-requests',
    {
      onRequest: app.requireScope('admin:muntly'),
      schema: {
        operationId: 'opsListControlRequests',
        tags: ['liabilities'],
        summary:
          'The signer: every house address a snapshot’s reserves list, with the message to sign, its scheme and where its key derives',
        security: [{ bearer: [] }],
        params: snapshotParams,
        response: { 200: controlRequestsResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => controlRequests(app.db, request.params.id),
  );

  app.post(
    '/api/ops/liabilities/:id/control',
    {
      onRequest: app.requireScope('admin:muntly'),
      schema: {
        operationId: 'opsSubmitControlProofs',
        tags: ['liabilities'],
        summary:
          'The signer: proofs of control of the snapshot’s house addresses, each verified before it is stored (all or none)',
        security: [{ bearer: [] }],
        params: snapshotParams,
        body: controlSubmitBody,
        response: { 200: controlSubmitResponse, ...errorResponses(400, 401, 403, 404, 422) },
      },
    },
    async (request) => submitControl(app.db, request.params.id, request.body.proofs, actorOf(request)),
  );
};
