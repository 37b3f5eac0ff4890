import {
  opsAccountParams,
  opsAccountResponse,
  opsAccountsQuery,
  opsAccountsResponse,
  opsOrderParams,
  opsOrderResponse,
  opsOrdersQuery,
  opsOrdersResponse,
  opsQueuesResponse,
  verificationDocumentsResponse,
} from '#domain/contracts/console';
import { errorResponses } from '../../schemas';
import { actorOf } from '../audit/service';
import { accountDetail, documentsWaiting, findAccounts, findOrders, opsQueues, orderDetail } from './console';
import type { PayoutApproval } from '../payouts/approval';
import type { RatesAdapter } from '../rates/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * What the operator console (/ops/) reads, under /api/ops (admin:muntly), each also an
 * `npm run ops` command: the queues' counts, the documents waiting for a check, orders and
 * accounts by search and one of them in detail. Reads of personal data are audited (console.ts).
 */
export const opsConsoleRoutes: FastifyPluginAsyncZod<{
  rates: RatesAdapter;
  approval: Pick<PayoutApproval, 'accountFrozen'>;
}> = async (app, { rates, approval }) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));

  app.get(
    '/api/ops/queues',
    {
      schema: {
        operationId: 'opsGetQueues',
        tags: ['ops'],
        summary:
          'How much waits in each queue: verification requests, documents to check, unmatched bank payments, payouts awaiting approval',
        security: [{ bearer: [] }],
        response: { 200: opsQueuesResponse, ...errorResponses(401, 403) },
      },
    },
    async () => opsQueues(app.db),
  );

  app.get(
    '/api/ops/verification-documents',
    {
      schema: {
        operationId: 'opsListVerificationDocuments',
        tags: ['ops'],
        summary:
          'Submissions waiting for a document to be checked by hand (the ID), oldest first: verify or reject them',
        security: [{ bearer: [] }],
        response: { 200: verificationDocumentsResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ documents: await documentsWaiting(app.db, actorOf(request)) }),
  );

  app.get(
    '/api/ops/orders',
    {
      schema: {
        operationId: 'opsListOrders',
        tags: ['ops'],
        summary: 'Orders by reference (full or short) or part of the email, status, type and day placed, newest first',
        security: [{ bearer: [] }],
        querystring: opsOrdersQuery,
        response: { 200: opsOrdersResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findOrders(app.db, request.query, actorOf(request)),
  );

  app.get(
    '/api/ops/orders/:reference',
    {
      schema: {
        operationId: 'opsGetOrder',
        tags: ['ops'],
        summary:
          'One order and its whole history: its times, its payouts, and every audit row about it, its bank payments and payouts',
        security: [{ bearer: [] }],
        params: opsOrderParams,
        response: { 200: opsOrderResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => orderDetail(app.db, request.params.reference, actorOf(request)),
  );

  app.get(
    '/api/ops/accounts',
    {
      schema: {
        operationId: 'opsListAccounts',
        tags: ['ops'],
        summary: 'Accounts whose key is q, or whose email contains it, newest first',
        security: [{ bearer: [] }],
        querystring: opsAccountsQuery,
        response: { 200: opsAccountsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => findAccounts(app.db, request.query.q, request.query.limit, actorOf(request)),
  );

  app.get(
    '/api/ops/accounts/:accountKey',
    {
      schema: {
        operationId: 'opsGetAccount',
        tags: ['ops'],
        summary:
          'One account: balances, verification phases, recent orders and sends, whether its sends are frozen, its audit rows',
        security: [{ bearer: [] }],
        params: opsAccountParams,
        response: { 200: opsAccountResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => accountDetail(app.db, { rates, approval }, request.params.accountKey, actorOf(request)),
  );
};
