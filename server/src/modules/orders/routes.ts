import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import rateLimit from '@fastify/rate-limit';
import { placeOrder, lookupOrder, orderView, ordersOf, type BankDetails } from './service';
import { ensureAccount } from '../accounts/service';
import type { RatesAdapter } from '../rates/service';
import { errorResponses } from '../../schemas';
import { ApiError } from '../../errors';

const orderSchema = z.object({
  reference: z.string().describe('ABCD-EFGH-IJKL-MNOP: keep it, with your email it finds the order'),
  shortReference: z.string().describe('The bank payment reason'),
  type: z.enum(['buy', 'sell', 'swap']),
  currencyFrom: z.string(),
  currencyTo: z.string(),
  amount: z.string(),
  amountEur: z.string(),
  address: z.string().nullable(),
  rateType: z.literal('floating'),
  paymentMethod: z.string().nullable(),
  estimatedRate: z.string(),
  estimatedAmountConverted: z.string(),
  estimatedNetworkFee: z.string(),
  fee: z.string(),
  status: z.literal('new'),
  date: z.string(),
  sendToMyWallet: z.boolean(),
  useMyWallet: z.boolean(),
  paymentDetails: z
    .object({ iban: z.string(), bic: z.string(), beneficiary: z.string(), amount: z.string(), reason: z.string(), methods: z.array(z.string()), epcPayload: z.string() })
    .nullable(),
});

export const orderRoutes: FastifyPluginAsyncZod<{ rates: RatesAdapter; bank: BankDetails; buySellEnabled: boolean }> = async (app, { rates, bank, buySellEnabled }) => {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => Object.assign(new Error('rate limited'), { statusCode: 429 }),
  });

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
          address: z.string().max(200).optional(),
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
      const { order, created } = await placeOrder(app.db, rates, { buySellEnabled, account, idempotencyKey: request.headers['idempotency-key'] }, request.body);
      return reply.code(created ? 201 : 200).send(orderView(order, bank));
    },
  );

  app.post(
    '/api/orders/lookup',
    {
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        tags: ['exchange'],
        summary: 'Find an order by email and full reference (rate-limited; one uniform "not found")',
        body: z.object({ email: z.string().max(254), reference: z.string().max(40) }),
        response: { 200: orderSchema, ...errorResponses(400, 404, 429) },
      },
    },
    async (request) => {
      if (!request.body.email.trim()) throw new ApiError(400, 'invalid_email', 'email');
      return orderView(await lookupOrder(app.db, request.body.email, request.body.reference), bank);
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
      return { orders: (await ordersOf(app.db, account.id)).map((row) => orderView(row, bank)) };
    },
  );
};
