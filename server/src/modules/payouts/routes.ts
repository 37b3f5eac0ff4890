import {
  payoutApproveResponse,
  payoutParams,
  payoutRejectBody,
  payoutRejectResponse,
  payoutResultBody,
  payoutResultResponse,
  payoutsQuery,
  payoutsResponse,
} from '#domain/contracts/payouts';
import { knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import { decimalToMinor } from '#domain/money';
import { errorResponses } from '../../schemas';
import { actorOf, readPersonalData } from '../audit/service';
import { approvePayout, operatorOf, rejectPayout } from './review';
import { bookPayoutResult, findPayout, listPayouts, payoutView, type PayoutOutcomes } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The executor's side of the payout pipeline, under /api/ops (admin tokens only). In production
 * the signer (crypto) and the operator's bank process (SEPA) poll `GET /api/ops/payouts?status=submitted`,
 * execute each payout once per `idempotencyKey`, and report the txid or a failure to
 * `POST /api/ops/payouts/:id/result`. The same report twice is accepted once; a different result
 * for a payout already final is refused (409 payout_already_final). A list that shows payouts
 * (their destinations are personal data) and every report are written to the audit trail.
 *
 * Operators decide on the payouts awaiting approval (review.ts): approve (the first operator's
 * approval is the review, a second operator's releases it) or reject. The operator is the token's
 * subject (audit/service.ts actorOf).
 */
async function payoutCurrency(db: Parameters<typeof findPayout>[0], id: string): Promise<string> {
  const row = await findPayout(db, id);
  if (!row) throw new DomainError('not_found');
  return row.currency;
}

export const payoutOpsRoutes: FastifyPluginAsyncZod<{ outcomes: PayoutOutcomes }> = async (app, { outcomes }) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));

  app.get(
    '/api/ops/payouts',
    {
      schema: {
        operationId: 'opsListPayouts',
        tags: ['payouts'],
        summary: 'Payouts, oldest first: the executor lists status=submitted',
        security: [{ bearer: [] }],
        querystring: payoutsQuery,
        response: { 200: payoutsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      payouts: await readPersonalData(app.db, actorOf(request), 'payouts', (tx) =>
        listPayouts(tx, request.query, actorOf(request)),
      ),
    }),
  );

  app.post(
    '/api/ops/payouts/:id/result',
    {
      schema: {
        operationId: 'opsReportPayoutResult',
        tags: ['payouts'],
        summary: 'The executor reports a submitted payout: completed with its txid, or failed',
        security: [{ bearer: [] }],
        params: payoutParams,
        body: payoutResultBody,
        response: { 200: payoutResultResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const body = request.body;
      // The signer's fee share arrives as a decimal of the payout's currency, booked in minor units.
      const result =
        body.status === 'broadcast'
          ? {
              ...body,
              fee: decimalToMinor(body.fee, knownDecimals(await payoutCurrency(app.db, request.params.id)))!,
            }
          : body;
      const { payout, booked } = await bookPayoutResult(app.db, outcomes, {
        id: request.params.id,
        result,
        actor: actorOf(request),
      });
      return { payout: payoutView(payout), booked };
    },
  );

  app.post(
    '/api/ops/payouts/:id/approve',
    {
      schema: {
        operationId: 'opsApprovePayout',
        tags: ['payouts'],
        summary:
          'Approve a payout awaiting approval: the first operator reviews, a second, different one releases it to the worker',
        security: [{ bearer: [] }],
        params: payoutParams,
        response: { 200: payoutApproveResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { payout, released } = await approvePayout(app.db, outcomes, {
        id: request.params.id,
        operator: await operatorOf(app.db, request.auth!),
      });
      return { payout: payoutView(payout), released };
    },
  );

  app.post(
    '/api/ops/payouts/:id/reject',
    {
      schema: {
        operationId: 'opsRejectPayout',
        tags: ['payouts'],
        summary:
          'Reject a payout awaiting approval: it fails and its money goes back to where it came from (a send to the balance, an order is refunded)',
        security: [{ bearer: [] }],
        params: payoutParams,
        body: payoutRejectBody,
        response: { 200: payoutRejectResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => ({
      payout: payoutView(
        await rejectPayout(app.db, outcomes, {
          id: request.params.id,
          operator: actorOf(request),
          reason: request.body.reason,
        }),
      ),
    }),
  );
};
