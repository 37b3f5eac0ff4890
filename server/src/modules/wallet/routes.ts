import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ensureAccount } from '../accounts/service';
import { walletBalances } from './service';
import type { RatesAdapter } from '../rates/service';
import { errorResponses } from '../../schemas';
import { createAddress, listAddresses, relabelAddress } from './addresses';
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
};
