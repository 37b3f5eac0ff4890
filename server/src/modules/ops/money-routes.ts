import { normalizeCode } from '#domain/codes';
import {
  businessPaymentBody,
  businessPaymentResponse,
  orderReviewBody,
  orderReviewResponse,
  chainDepositBody,
  chainDepositResponse,
  ledgerVerifyResponse,
  paymentReceivedBody,
  paymentReceivedResponse,
} from '#domain/contracts/ops';
import { exactMinorIn, knownDecimals } from '#domain/currencies';
import { DomainError } from '#domain/errors';
import { minorToDecimal } from '#domain/money';
import { errorResponses } from '../../schemas';
import { actorOf } from '../audit/service';
import { chainDepositArrived } from '../incoming/service';
import { userTotals, verifyLedger } from '../ledger/service';
import { bankPaymentReceived, markBusinessPayment } from '../orders/intake';
import { reviewHeldOrder, type SettlementDeps } from '../orders/settlement';
import { orderMoney } from '../orders/views';
import { operatorOf } from '../payouts/review';
import type { Chain } from '../chain/service';
import type { RatesAdapter } from '../rates/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Operator actions under /api/ops on money: the ledger's check, and what the bank and the chain
 * report (simulated locally; in production their adapters call the same services). The same as
 * `npm run ops -- …`; every route needs a token with both `use:muntly` and `admin:muntly`, and
 * every booking is written to the audit trail with it.
 */
export const opsMoneyRoutes: FastifyPluginAsyncZod<{
  rates: RatesAdapter;
  chain: Chain;
  settlement: SettlementDeps;
}> = async (app, { rates, chain, settlement }) => {
  app.addHook('onRequest', app.requireScope('admin:muntly'));

  app.get(
    '/api/ops/ledger/verify',
    {
      schema: {
        operationId: 'opsVerifyLedger',
        tags: ['ops'],
        summary: 'Checks every ledger invariant',
        security: [{ bearer: [] }],
        response: { 200: ledgerVerifyResponse, ...errorResponses(401, 403) },
      },
    },
    async () => {
      const [checks, totals] = await Promise.all([verifyLedger(app.db), userTotals(app.db)]);
      const owedToUsers = totals.map(({ currency, total }) => ({
        currency,
        total: minorToDecimal(total, knownDecimals(currency)),
      }));
      return { ok: checks.every((c) => c.ok), checks, owedToUsers };
    },
  );

  app.post(
    '/api/ops/chain-deposit',
    {
      schema: {
        operationId: 'opsChainDeposit',
        tags: ['ops'],
        summary:
          'Simulate an incoming chain deposit to a reception address (the production watcher calls the same service)',
        security: [{ bearer: [] }],
        body: chainDepositBody,
        response: { 200: chainDepositResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const deposit = await chainDepositArrived(app.db, rates, request.body, actorOf(request));
      // Locally the simulated chain now holds it at that address (the reserves beside the proof
      // of liabilities); a real chain had it before anyone reported it.
      await chain.received(app.db, {
        currency: deposit.currency,
        address: deposit.address,
        amount: exactMinorIn(deposit.amount, deposit.currency),
        txid: deposit.txid,
      });
      return deposit;
    },
  );

  app.post(
    '/api/ops/payment-received',
    {
      schema: {
        operationId: 'opsPaymentReceived',
        tags: ['ops'],
        summary:
          "Simulate an incoming SEPA payment: reason = a buy order's shortReference, or DEPOSIT + account key (+ currency) (the production bank adapter calls the same service)",
        security: [{ bearer: [] }],
        body: paymentReceivedBody,
        response: { 200: paymentReceivedResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const { order, created } = await bankPaymentReceived(app.db, rates, request.body, actorOf(request));
      return {
        reference: order.reference,
        type: order.type,
        status: order.status,
        amountReceived: orderMoney(order).amountReceived,
        credited: created,
        businessHold: order.businessHold,
      };
    },
  );

  app.post(
    '/api/ops/orders/business-payment',
    {
      schema: {
        operationId: 'opsBusinessPayment',
        tags: ['ops'],
        summary:
          'The bank statement shows a buy was paid from a business account: the order waits until a business behind it is verified',
        security: [{ bearer: [] }],
        body: businessPaymentBody,
        response: { 200: businessPaymentResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const order = await markBusinessPayment(app.db, request.body.reference, actorOf(request));
      return { reference: order.reference, status: order.status, businessHold: order.businessHold };
    },
  );

  app.post(
    '/api/ops/orders/review',
    {
      schema: {
        operationId: 'opsReviewOrder',
        tags: ['ops'],
        summary:
          "An anonymous order held because its payer's week passed the cap: convert it anyway, or refund it to the payer (not one's own order; audited)",
        security: [{ bearer: [] }],
        body: orderReviewBody,
        response: { 200: orderReviewResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const reference = normalizeCode(request.body.reference);
      if (!reference) throw new DomainError('not_found', 'reference');
      const order = await reviewHeldOrder(app.db, settlement, {
        reference,
        decision: request.body.decision,
        operator: await operatorOf(app.db, request.auth!),
      });
      return {
        reference: order.reference,
        status: order.status,
        reviewHold: order.reviewHold,
        failureReason: order.failureReason,
      };
    },
  );
};
