import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ensureAccount } from '../accounts/service';
import { walletBalances } from './service';
import type { RatesAdapter } from '../rates/service';
import { errorResponses } from '../../schemas';
import { createAddress, listAddresses, relabelAddress } from './addresses';
import { listTransactions, toCsv } from './transactions';
import { createSend, confirmSend, getSend, sendView } from './sends';
import { requestLanguage } from '../notify/service';
import type { Xpubs } from '../chain/derive';

const balancesSchema = z.object({
  balances: z.array(
    z.object({
      currency: z.string(),
      name: z.string(),
      balance: z.string().describe('Decimal string at the currency’s decimals'),
      eurEstimate: z.string().describe('EUR value at the current rate, decimal string'),
      support: z.enum(['full', 'partial']),
      notice: z.string().optional(),
    }),
  ),
  totalEur: z.string(),
  ratesAt: z.string(),
});

/** The wallet of the logged-in user. Any logged-in user may see balances and transactions. */
const addressSchema = z.object({ id: z.string(), currency: z.string(), address: z.string().describe('XRP: address:tag'), label: z.string().nullable() });
const label = z.string().trim().max(100, 'too_long');

export const walletRoutes: FastifyPluginAsyncZod<{ rates: RatesAdapter; xpubs: Xpubs }> = async (app, { rates, xpubs }) => {
  app.get(
    '/api/wallet/balances',
    {
      onRequest: app.authenticate,
      schema: { tags: ['wallet'], summary: 'Balance per currency with its EUR estimate', security: [{ bearer: [] }], response: { 200: balancesSchema, ...errorResponses(401, 403) } },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      return walletBalances(app.db, rates, account.id);
    },
  );

  app.post(
    '/api/wallet/addresses',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['wallet'],
        summary: 'A new reception address (needs a verified bank account)',
        security: [{ bearer: [] }],
        body: z.object({ currency: z.string().max(10), label: label.optional() }),
        response: { 201: addressSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const account = await ensureAccount(app.db, request.auth!);
      const created = await createAddress(app.db, xpubs, { ownerId: account.id, currency: request.body.currency.toUpperCase(), label: request.body.label || undefined });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/api/wallet/addresses',
    {
      onRequest: app.authenticate,
      schema: { tags: ['wallet'], summary: 'Your reception addresses', security: [{ bearer: [] }], response: { 200: z.object({ addresses: z.array(addressSchema) }), ...errorResponses(401, 403) } },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      return { addresses: await listAddresses(app.db, account.id) };
    },
  );

  app.patch(
    '/api/wallet/addresses/:id',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['wallet'],
        summary: 'Change the label of one of your addresses',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().max(64) }),
        body: z.object({ label: label.nullable() }),
        response: { 200: addressSchema, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      return relabelAddress(app.db, { ownerId: account.id, id: request.params.id, label: request.body.label || null });
    },
  );

  const transactionSchema = z.object({
    id: z.string(),
    date: z.string(),
    type: z.string().describe('deposit, send, internal, fee, order, faucet, …'),
    direction: z.enum(['in', 'out']),
    currency: z.string(),
    amount: z.string(),
    fee: z.string().nullable(),
    eurValue: z.string().nullable().describe('EUR value at the time of the transaction'),
    address: z.string().nullable(),
    label: z.string().nullable(),
    status: z.literal('completed'),
  });

  app.get(
    '/api/wallet/transactions',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['wallet'],
        summary: 'Your transactions, newest first (cursor pagination); ?format=csv downloads them',
        security: [{ bearer: [] }],
        querystring: z.object({
          currency: z.string().max(10).optional(),
          cursor: z.string().max(200).optional(),
          limit: z.coerce.number().int().min(1).max(100).default(25),
          format: z.enum(['json', 'csv']).default('json'),
        }),
        response: { 200: z.union([z.object({ transactions: z.array(transactionSchema), nextCursor: z.string().nullable() }), z.string()]), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const account = await ensureAccount(app.db, request.auth!);
      const currency = request.query.currency?.toUpperCase();
      if (request.query.format === 'json') {
        return listTransactions(app.db, account.id, { currency, cursor: request.query.cursor, limit: request.query.limit });
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

  const sendSchema = z.object({
    id: z.string(),
    status: z.enum(['awaiting_code', 'processing', 'completed', 'failed']),
    currency: z.string(),
    address: z.string(),
    amount: z.string(),
    networkFee: z.string(),
    internal: z.boolean().describe('To another Muntly wallet: instant, no network fee'),
    label: z.string().nullable(),
  });

  app.post(
    '/api/wallet/sends',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['wallet'],
        summary: 'Start a send: a verification code is emailed (Idempotency-Key honoured)',
        security: [{ bearer: [] }],
        headers: z.object({ 'idempotency-key': z.string().min(1).max(100).optional() }).passthrough(),
        body: z.object({ currency: z.string().max(10), address: z.string().max(200), amount: z.string().max(40), label: label.optional() }),
        response: { 201: sendSchema, 200: sendSchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const account = await ensureAccount(app.db, request.auth!);
      const { send, created } = await createSend(app.db, rates, {
        account,
        ...request.body,
        label: request.body.label || undefined,
        idempotencyKey: request.headers['idempotency-key'],
        language: requestLanguage(request.headers['accept-language']),
      });
      return reply.code(created ? 201 : 200).send(sendView(send));
    },
  );

  app.get(
    '/api/wallet/sends/:id',
    {
      onRequest: app.authenticate,
      schema: { tags: ['wallet'], summary: 'One of your sends', security: [{ bearer: [] }], params: z.object({ id: z.string().max(64) }), response: { 200: sendSchema, ...errorResponses(401, 403, 404) } },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      return sendView(await getSend(app.db, account.id, request.params.id));
    },
  );

  app.post(
    '/api/wallet/sends/:id/confirm',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['wallet'],
        summary: 'Confirm a send with its emailed code; it is then processed',
        security: [{ bearer: [] }],
        params: z.object({ id: z.string().max(64) }),
        body: z.object({ code: z.string().max(64) }),
        response: { 200: sendSchema.extend({ message: z.string() }), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      const send = await confirmSend(app.db, rates, { ownerId: account.id, sendId: request.params.id, code: request.body.code });
      return { ...sendView(send), message: 'Your transaction is being processed.' };
    },
  );
};
