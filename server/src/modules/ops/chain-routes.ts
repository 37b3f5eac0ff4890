import {
  changeAddressBody,
  changeAddressResponse,
  chainAlertParams,
  chainAlertResolveResponse,
  chainAlertsResponse,
  chainAssignBody,
  chainAssignResponse,
  chainCurrencyQuery,
  chainReturnBody,
  chainReturnResponse,
  chainUnmatchedResponse,
  houseOutputsResponse,
  reconcileResponse,
} from '#domain/contracts/chain';
import { DomainError } from '#domain/errors';
import { errorResponses } from '../../schemas';
import { actorOf, readPersonalData } from '../audit/service';
import { NodeError, type CoinNode } from '../chain/rpc';
import {
  houseOutputs,
  nextHouseAddress,
  openChainAlerts,
  resolveChainAlert,
  unmatchedChainOutputs,
  type Xpubs,
} from '../chain/service';
import { XrplError } from '../chain/xrpl-rpc';
import { assignChainOutput, returnChainOutput } from '../incoming/service';
import { reconcileAll } from './service';
import type { NodeCurrency } from '#domain/chain';
import type { XrpChain } from '../chain/nodes';
import type { PayoutApproval } from '../payouts/approval';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The chain side under /api/ops (issue 30; domain/contracts/chain.ts): the signer's questions, the
 * unmatched chain queue, the chain alerts and the reconciliation. Admin tokens only.
 */
export const opsChainRoutes: FastifyPluginAsyncZod<{
  nodes: Map<NodeCurrency, CoinNode>;
  xpubs: Xpubs;
  approval: PayoutApproval;
  xrp?: XrpChain | null;
}> = async (app, { nodes, xpubs, approval, xrp = null }) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));

  app.get(
    '/api/ops/chain/outputs',
    {
      schema: {
        operationId: 'opsListChainOutputs',
        tags: ['ops'],
        summary: 'The signer: the house outputs it may spend, and how many addresses each branch handed out',
        security: [{ bearer: [] }],
        querystring: chainCurrencyQuery,
        response: { 200: houseOutputsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => houseOutputs(app.db, request.query.currency),
  );

  app.post(
    '/api/ops/chain/change-address',
    {
      schema: {
        operationId: 'opsNewChangeAddress',
        tags: ['ops'],
        summary: 'The signer: a fresh house change address (branch 2), which the watcher knows as the house’s',
        security: [{ bearer: [] }],
        body: changeAddressBody,
        response: { 200: changeAddressResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => app.db.transaction((tx) => nextHouseAddress(tx, xpubs, request.body.currency, 'change')),
  );

  app.get(
    '/api/ops/chain/unmatched',
    {
      schema: {
        operationId: 'opsListChainUnmatched',
        tags: ['ops'],
        summary: 'The unmatched chain queue: dust, and coins at addresses that expected nothing',
        security: [{ bearer: [] }],
        response: { 200: chainUnmatchedResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({
      outputs: await readPersonalData(app.db, actorOf(request), 'chain-unmatched', (tx) => unmatchedChainOutputs(tx)),
    }),
  );

  app.post(
    '/api/ops/chain/unmatched/assign',
    {
      schema: {
        operationId: 'opsAssignChainUnmatched',
        tags: ['ops'],
        summary: 'Credit an unmatched output to the wallet of the account with this email',
        security: [{ bearer: [] }],
        body: chainAssignBody,
        response: { 200: chainAssignResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ output: await assignChainOutput(app.db, request.body, actorOf(request)) }),
  );

  app.post(
    '/api/ops/chain/unmatched/return',
    {
      schema: {
        operationId: 'opsReturnChainUnmatched',
        tags: ['ops'],
        summary:
          'Send an unmatched output back to the address its sender named, less the network fee (a payout, four eyes as any)',
        security: [{ bearer: [] }],
        body: chainReturnBody,
        response: { 200: chainReturnResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => returnChainOutput(app.db, approval, request.body, actorOf(request)),
  );

  app.get(
    '/api/ops/chain/alerts',
    {
      schema: {
        operationId: 'opsListChainAlerts',
        tags: ['ops'],
        summary: 'Open chain alerts: deposits booked back after a reorg, reconciliations that found a difference',
        security: [{ bearer: [] }],
        response: { 200: chainAlertsResponse, ...errorResponses(401, 403) },
      },
    },
    async () => ({ alerts: await openChainAlerts(app.db) }),
  );

  app.post(
    '/api/ops/chain/alerts/:id/resolve',
    {
      schema: {
        operationId: 'opsResolveChainAlert',
        tags: ['ops'],
        summary: 'Mark a chain alert as handled',
        security: [{ bearer: [] }],
        params: chainAlertParams,
        response: { 200: chainAlertResolveResponse, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => ({ alert: await resolveChainAlert(app.db, request.params.id, actorOf(request)) }),
  );

  app.post(
    '/api/ops/chain/reconcile',
    {
      schema: {
        operationId: 'opsReconcileChain',
        tags: ['ops'],
        summary:
          'Reconcile the house’s coins on chain with the ledger, per currency with a node; a difference raises an alert',
        security: [{ bearer: [] }],
        response: { 200: reconcileResponse, ...errorResponses(401, 403, 503) },
      },
    },
    async () => {
      try {
        return { results: await reconcileAll(app.db, nodes, xpubs, xrp) };
      } catch (error) {
        // The node is down, or busy with another replica's scan: nothing was concluded.
        if (error instanceof NodeError || error instanceof XrplError)
          throw new DomainError(
            'try_again_soon',
            undefined,
            `The node did not answer the reconciliation: ${error.message}`,
          );
        throw error;
      }
    },
  );
};
