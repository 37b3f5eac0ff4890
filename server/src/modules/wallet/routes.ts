import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ensureAccount } from '../accounts/service';
import { walletBalances } from './service';
import type { RatesAdapter } from '../rates/service';
import { errorResponses } from '../../schemas';

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
export const walletRoutes: FastifyPluginAsyncZod<{ rates: RatesAdapter }> = async (app, { rates }) => {
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
};
