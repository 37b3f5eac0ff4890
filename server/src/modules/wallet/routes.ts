import {
  addressesResponse,
  balancesResponse,
  confirmSendBody,
  confirmedSendResponse,
  createAddressBody,
  relabelAddressBody,
  sendFeeQuery,
  sendFeeResponse,
  startSendBody,
  startSendHeaders,
  transactionsQuery,
  transactionsResponse,
  walletAddressSchema,
  walletIdParams,
  walletSendSchema,
} from '#domain/contracts/wallet';
import { takeLimits, type Limit } from '../../limits';
import { errorResponses } from '../../schemas';
import { requestLanguage } from '../notify/service';
import { createAddress, listAddresses, relabelAddress } from './addresses';
import { createSend, confirmSend, getSend, sendFee, sendView } from './sends';
import { walletBalances } from './service';
import { listTransactions, toCsv } from './transactions';
import type { Xpubs } from '../chain/service';
import type { PayoutApproval } from '../payouts/approval';
import type { RatesAdapter } from '../rates/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The send form asks the fee of each address typed (after a pause in typing): plenty for a person,
 * too few to test which of many addresses are Muntly wallets.
 */
export const SEND_FEE_RATE_LIMIT = { max: 60, timeWindow: '1 minute' } as const;
/** The same per account, counted in the database every replica shares (server/src/limits.ts). */
const SEND_FEE_LIMIT: Limit = { name: 'send-fee-account', max: SEND_FEE_RATE_LIMIT.max, windowMs: 60_000 };

/** The wallet of the logged-in user. Any logged-in user may see balances and transactions. */
export const walletRoutes: FastifyPluginAsyncZod<{
  rates: RatesAdapter;
  xpubs: Xpubs;
  approval: PayoutApproval;
  confirmations?: (currency: string) => number | null;
}> = async (app, { rates, xpubs, approval, confirmations = () => null }) => {
  app.get(
    '/api/wallet/balances',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'getBalances',
        tags: ['wallet'],
        summary: 'Balance per currency with its EUR estimate',
        security: [{ bearer: [] }],
        response: { 200: balancesResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const account = request.account!;
      return walletBalances(app.db, rates, account.id);
    },
  );

  app.post(
    '/api/wallet/addresses',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'createAddress',
        tags: ['wallet'],
        summary: 'A new reception address (needs a verified bank account)',
        security: [{ bearer: [] }],
        body: createAddressBody,
        response: { 201: walletAddressSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const account = request.account!;
      const created = await createAddress(app.db, xpubs, {
        ownerId: account.id,
        currency: request.body.currency.toUpperCase(),
        label: request.body.label || undefined,
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/wallet/addresses',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'listAddresses',
        tags: ['wallet'],
        summary: 'Your reception addresses',
        security: [{ bearer: [] }],
        response: { 200: addressesResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const account = request.account!;
      return { addresses: await listAddresses(app.db, account.id, confirmations) };
    },
  );

  app.patch(
    '/api/wallet/addresses/:id',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'relabelAddress',
        tags: ['wallet'],
        summary: 'Change the label of one of your addresses',
        security: [{ bearer: [] }],
        params: walletIdParams,
        body: relabelAddressBody,
        response: { 200: walletAddressSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = request.account!;
      return relabelAddress(app.db, { ownerId: account.id, id: request.params.id, label: request.body.label || null });
    },
  );

  app.get(
    '/api/wallet/transactions',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'listTransactions',
        tags: ['wallet'],
        summary: 'Your transactions, newest first (cursor pagination); ?format=csv downloads them',
        security: [{ bearer: [] }],
        querystring: transactionsQuery,
        response: { 200: transactionsResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const account = request.account!;
      const currency = request.query.currency?.toUpperCase();
      if (request.query.format === 'json') {
        return listTransactions(app.db, account.id, {
          currency,
          cursor: request.query.cursor,
          limit: request.query.limit,
        });
      }
      // The whole history, page by page (bounded: an export is for people, not for scraping).
      const all = [];
      let cursor: string | undefined = request.query.cursor;
      for (let pages = 0; pages < 100; pages++) {
        const page = await listTransactions(app.db, account.id, { currency, cursor, limit: 100 });
        all.push(...page.transactions);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="muntly-transactions.csv"')
        .send(toCsv(all));
    },
  );

  app.post(
    '/api/wallet/sends',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'startSend',
        tags: ['wallet'],
        summary: 'Start a send: a verification code is emailed (Idempotency-Key honoured)',
        security: [{ bearer: [] }],
        headers: startSendHeaders,
        body: startSendBody,
        response: { 201: walletSendSchema, 200: walletSendSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const account = request.account!;
      const { send, created } = await createSend(app.db, rates, {
        account,
        houseXrpAddress: xpubs.XRP,
        ...request.body,
        label: request.body.label || undefined,
        idempotencyKey: request.headers['idempotency-key'],
        language: requestLanguage(request.headers['accept-language']),
        protection: app.protection,
      });
      return reply.code(created ? 201 : 200).send(sendView(send));
    },
  );

  app.get(
    '/api/wallet/send-fee',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'getSendFee',
        tags: ['wallet'],
        summary:
          'The network fee a send to this address would pay (none to another Muntly wallet), before starting it (rate-limited)',
        security: [{ bearer: [] }],
        querystring: sendFeeQuery,
        response: { 200: sendFeeResponse, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      await takeLimits(app.db, [{ limit: SEND_FEE_LIMIT, subject: request.account!.id }]);
      return sendFee(app.db, {
        account: request.account!,
        houseXrpAddress: xpubs.XRP,
        currency: request.query.currency,
        address: request.query.address,
      });
    },
  );

  app.get(
    '/api/wallet/sends/:id',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'getSend',
        tags: ['wallet'],
        summary: 'One of your sends',
        security: [{ bearer: [] }],
        params: walletIdParams,
        response: { 200: walletSendSchema, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const account = request.account!;
      return sendView(await getSend(app.db, account.id, request.params.id));
    },
  );

  app.post(
    '/api/wallet/sends/:id/confirm',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'confirmSend',
        tags: ['wallet'],
        summary: 'Confirm a send with its emailed code; it is then processed',
        security: [{ bearer: [] }],
        params: walletIdParams,
        body: confirmSendBody,
        response: { 200: confirmedSendResponse, ...errorResponses(400, 401, 403, 404, 409, 429) },
        description:
          'Needs a login at most SEND_MAX_AUTH_AGE_MINUTES old (auth_time; else 401 login_required_recent with WWW-Authenticate max_age), and above SEND_SECOND_FACTOR_ABOVE_EUR a second factor (amr otp/mfa; else 403 second_factor_required).',
      },
    },
    async (request) => {
      const account = request.account!;
      const { authTime, amr } = request.auth!;
      const send = await confirmSend(
        app.db,
        { rates, approval },
        {
          account,
          sendId: request.params.id,
          code: request.body.code,
          login: { authTime, amr },
          protection: app.protection,
        },
      );
      const message =
        send.status === 'awaiting_approval'
          ? 'Your transaction waits for approval by two members of our team.'
          : 'Your transaction is being processed.';
      return { ...sendView(send), message };
    },
  );
};
