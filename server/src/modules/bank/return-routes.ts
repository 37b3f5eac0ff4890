import rateLimit from '@fastify/rate-limit';
import { bankPaymentParams, payoutReturnLinkResponse, payoutReturnsAwaitingResponse } from '#domain/contracts/bank';
import { newIbanBody, newIbanParams, orderSchema, returnLinkBody } from '#domain/contracts/orders';
import { DomainError, secondsToWait } from '#domain/errors';
import { RateLimited } from '../../errors';
import { errorResponses } from '../../schemas';
import { actorOf } from '../audit/service';
import { orderView, type BankDetails } from '../orders/views';
import {
  giveNewIban,
  openReturnLink,
  resendReturnLink,
  returnsAwaitingIban,
  withPayoutReturn,
  type ReturnLinks,
} from './returns';
import type { PayoutApproval } from '../payouts/approval';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Returned payouts (returns.ts): the customer gives another IBAN — logged in as the order's
 * account, or with the emailed link's token (anonymous orders) — and the operator lists those
 * still waiting. The token routes are rate-limited per client: a token is 64 random-looking
 * characters under an HMAC, but a guesser must not get to try many.
 */
export const payoutReturnRoutes: FastifyPluginAsyncZod<{
  approval: PayoutApproval;
  links: ReturnLinks;
  bank: BankDetails;
  perMinute: number;
}> = async (app, { approval, links, bank, perMinute }) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => new RateLimited(secondsToWait(context.ttl)),
  });
  const limit = app.createRateLimit({
    max: perMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => `payout-return:${request.ip}`,
  });
  const limited = async (request: Parameters<typeof limit>[0]) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) throw new RateLimited(secondsToWait(result.ttl));
  };

  app.post(
    '/api/orders/return-link',
    {
      preHandler: limited,
      config: { personal: true },
      schema: {
        operationId: 'openReturnLink',
        tags: ['bank'],
        summary: "Open a returned payout's emailed link: the order, to give another IBAN (rate-limited)",
        body: returnLinkBody,
        response: { 200: orderSchema, ...errorResponses(400, 409, 429) },
      },
    },
    async (request) => {
      const row = await openReturnLink(app.db, links, request.body.token);
      return withPayoutReturn(app.db, orderView(row, bank), row);
    },
  );

  app.post(
    '/api/orders/:reference/new-iban',
    {
      // With a token, anyone holding the link; without, the order's account (a token, when sent, must be valid).
      onRequest: app.withOptionalAccount,
      preHandler: limited,
      config: { personal: true },
      schema: {
        operationId: 'giveNewIban',
        tags: ['bank'],
        summary:
          'Another IBAN for a payout the payee’s bank returned: a new payout of the amount owed (four eyes as any payout). Logged in as the order’s account, or with the emailed link’s token.',
        params: newIbanParams,
        body: newIbanBody,
        response: { 200: orderSchema, ...errorResponses(400, 401, 404, 409, 429) },
      },
    },
    async (request) => {
      const { token, iban, holderName } = request.body;
      const by = token ? { token } : request.account ? { accountId: request.account.id } : null;
      if (!by) throw new DomainError('login_required');
      const { order } = await giveNewIban(
        app.db,
        {
          approval,
          links,
          bankIban: bank.iban,
          actor: request.account ? `account:${request.account.accountKey}` : 'return-link',
        },
        { reference: request.params.reference, iban, holderName, by },
      );
      return withPayoutReturn(app.db, orderView(order, bank), order);
    },
  );

  app.get(
    '/api/ops/bank/returns',
    {
      onRequest: app.requireScope('admin:muntly'),
      schema: {
        operationId: 'opsListReturns',
        tags: ['bank'],
        summary: 'Returned payouts waiting for the customer to give another IBAN, oldest first',
        security: [{ bearer: [] }],
        response: { 200: payoutReturnsAwaitingResponse, ...errorResponses(401, 403) },
      },
    },
    async () => ({ returns: await returnsAwaitingIban(app.db) }),
  );

  app.post(
    '/api/ops/bank/returns/:id/link',
    {
      onRequest: app.requireScope('admin:muntly'),
      schema: {
        operationId: 'opsSendReturnLink',
        tags: ['bank'],
        summary:
          'Email an anonymous seller a new link to give another IBAN for their returned payout (the old link stops working)',
        security: [{ bearer: [] }],
        params: bankPaymentParams,
        response: { 200: payoutReturnLinkResponse, ...errorResponses(401, 403, 404, 409) },
      },
    },
    async (request) => resendReturnLink(app.db, links, { id: request.params.id, actor: actorOf(request) }),
  );
};
