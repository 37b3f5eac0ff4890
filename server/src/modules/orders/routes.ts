import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import { placeOrder, lookupOrder, orderView, ordersOf, type BankDetails } from './service';
import { ensureAccount } from '../accounts/service';
import type { RatesAdapter } from '../rates/service';
import { errorResponses } from '../../schemas';
import { ApiError } from '../../errors';
import { requestLanguage } from '../notify/service';
import type { Xpubs } from '../chain/derive';

const orderSchema = z.object({
  reference: z.string().describe('ABCD-EFGH-IJKL-MNOP: keep it, with your email it finds the order'),
  shortReference: z.string().describe('The bank payment reason'),
  type: z.enum(['buy', 'sell', 'swap', 'deposit']),
  currencyFrom: z.string(),
  currencyTo: z.string(),
  amount: z.string(),
  amountEur: z.string(),
  address: z.string().nullable().describe('Delivery: a crypto address (XRP address:tag) or, for a sell, the IBAN; null into the Muntly wallet'),
  rateType: z.literal('floating'),
  paymentMethod: z.string().nullable(),
  estimatedRate: z.string(),
  estimatedAmountConverted: z.string(),
  estimatedNetworkFee: z.string(),
  fee: z.string(),
  status: z.enum(['new', 'processing', 'completed_success', 'completed_failure']),
  date: z.string(),
  sendToMyWallet: z.boolean(),
  useMyWallet: z.boolean(),
  paymentDetails: z
    .object({ iban: z.string(), bic: z.string(), beneficiary: z.string(), amount: z.string(), reason: z.string(), methods: z.array(z.string()), epcPayload: z.string() })
    .nullable(),
  receiving: z.object({ currency: z.string(), address: z.string(), tag: z.string().nullable(), amount: z.string() }).nullable().describe('Sell and swap: send the crypto here'),
  amountReceived: z.string().nullable(),
  actualRate: z.string().nullable(),
  actualAmountConverted: z.string().nullable(),
  actualNetworkFee: z.string().nullable(),
  actualFee: z.string().nullable(),
  payoutTxid: z.string().nullable(),
  failure: z.object({ reason: z.string(), refund: z.enum(['bank', 'wallet', 'sender']) }).nullable(),
  completedAt: z.string().nullable(),
  email: z.string().optional().describe("The order's email address: only in the owner's own list (it opens the live events)"),
});

const lookupBody = z.object({ email: z.string().max(254), reference: z.string().max(40) });

type Options = { rates: RatesAdapter; bank: BankDetails; buySellEnabled: boolean; xpubs: Xpubs; lookupLimitPerMinute: number; eventsPollMs?: number };

export const orderRoutes: FastifyPluginAsyncZod<Options> = async (app, { rates, bank, buySellEnabled, xpubs, lookupLimitPerMinute, eventsPollMs = 1000 }) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => Object.assign(new Error('rate limited'), { statusCode: 429 }),
  });
  // Guessing a reference: at most 10 tries a minute from one address, and 10 a minute for one
  // email address from anywhere (so spreading the guesses over many addresses does not help).
  const byAddress = app.createRateLimit({ max: lookupLimitPerMinute, timeWindow: '1 minute' });
  const byEmail = app.createRateLimit({
    max: lookupLimitPerMinute,
    timeWindow: '1 minute',
    keyGenerator: (request) => `lookup-email:${String((request.body as { email?: unknown } | undefined)?.email ?? (request.query as { email?: unknown })?.email ?? '').trim().toLowerCase()}`,
  });
  const lookupLimits = async (request: FastifyRequest) => {
    const [address, email] = await Promise.all([byAddress(request), byEmail(request)]);
    const exceeded = (result: typeof address) => !result.isAllowed && result.isExceeded;
    if (exceeded(address) || exceeded(email)) throw new ApiError(429, 'try_again_soon');
  };

  // Open event streams end when the server shuts down, so closing does not wait for them.
  const streams = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const stop of streams) stop();
  });

  app.get(
    '/api/exchange/config',
    {
      schema: {
        tags: ['exchange'],
        summary: 'Whether buying and selling are on, and the bank account buyers and depositors pay to',
        response: { 200: z.object({ buySellEnabled: z.boolean(), bank: z.object({ iban: z.string(), bic: z.string(), beneficiary: z.string() }) }) },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=60');
      return { buySellEnabled, bank };
    },
  );

  app.post(
    '/api/orders',
    {
      schema: {
        tags: ['exchange'],
        summary: 'Place a buy, sell or swap order (anyone; the own-wallet options need a login). Idempotency-Key honoured.',
        headers: z.object({ 'idempotency-key': z.string().min(1).max(100).optional() }).passthrough(),
        body: z.object({
          type: z.enum(['buy', 'sell', 'swap']),
          currencyFrom: z.string().max(10),
          currencyTo: z.string().max(10),
          amount: z.string().max(40),
          email: z.string().max(254),
          address: z.string().max(200).optional().describe('Crypto address (XRP address:tag), or the IBAN for a sell'),
          paymentMethod: z.enum(['sepa', 'sepa_instant']).optional(),
          sendToMyWallet: z.boolean().optional(),
          useMyWallet: z.boolean().optional(),
        }),
        response: { 201: orderSchema, 200: orderSchema, ...errorResponses(400, 401, 403, 409, 503) },
      },
    },
    async (request, reply) => {
      // Logged in or not: a token, when sent, must be valid.
      let account;
      if (request.headers.authorization) {
        await app.authenticate(request);
        account = await ensureAccount(app.db, request.auth!);
      }
      const { order, created } = await placeOrder(
        app.db,
        rates,
        { buySellEnabled, xpubs, account, language: requestLanguage(request.headers['accept-language']), idempotencyKey: request.headers['idempotency-key'] },
        request.body,
      );
      return reply.code(created ? 201 : 200).send(orderView(order, bank));
    },
  );

  app.post(
    '/api/orders/lookup',
    {
      preHandler: lookupLimits,
      schema: {
        tags: ['exchange'],
        summary: 'Find an order by email and full reference (rate-limited; one uniform "not found")',
        body: lookupBody,
        response: { 200: orderSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      if (!request.body.email.trim()) throw new ApiError(400, 'invalid_email', 'email');
      return orderView(await lookupOrder(app.db, request.body.email, request.body.reference), bank);
    },
  );

  app.get(
    '/api/orders/:reference/events',
    {
      preHandler: lookupLimits,
      schema: {
        tags: ['exchange'],
        summary: 'Live order status (Server-Sent Events, event "order" with the whole order) for the holder of email + reference; ends when completed',
        params: z.object({ reference: z.string().max(40) }),
        querystring: z.object({ email: z.string().max(254) }),
        response: { ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      let order = await lookupOrder(app.db, request.query.email, request.params.reference);
      reply.hijack();
      const stream = reply.raw;
      stream.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no', // a proxy must pass each event on at once
      });
      const emit = (row: typeof order) => stream.write(`event: order\ndata: ${JSON.stringify(orderView(row, bank))}\n\n`);
      emit(order);
      const open = () => order.status === 'new' || order.status === 'processing';
      if (!open()) return void stream.end();
      // Polling the row keeps this right with several replicas (the worker may be another process).
      let ticks = 0;
      const timer = setInterval(() => {
        ticks++;
        void lookupOrder(app.db, order.email, order.reference)
          .then((row) => {
            if (row.updatedAt.getTime() !== order.updatedAt.getTime() || row.status !== order.status) {
              order = row;
              emit(row);
              if (!open()) stop();
            } else if (ticks % 15 === 0) stream.write(': keep-alive\n\n');
          })
          .catch(() => undefined); // a passing database hiccup: the next tick tries again
      }, eventsPollMs);
      const stop = () => {
        clearInterval(timer);
        stream.end();
      };
      streams.add(stop);
      request.raw.on('close', () => {
        clearInterval(timer);
        streams.delete(stop);
      });
    },
  );

  app.get(
    '/api/me/orders',
    {
      onRequest: app.authenticate,
      schema: { tags: ['exchange'], summary: 'Your own orders, newest first', security: [{ bearer: [] }], response: { 200: z.object({ orders: z.array(orderSchema) }), ...errorResponses(401, 403) } },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      return { orders: (await ordersOf(app.db, account.id)).map((row) => ({ ...orderView(row, bank), email: row.email })) };
    },
  );
};
