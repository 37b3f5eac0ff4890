import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RatesAdapter } from './service';
import { errorResponses } from '../../schemas';
import { CURRENCIES, isOwnWalletOnly } from '../../../../domain/currencies';
import { ApiError } from '../../errors';
import { quote } from '../../../../domain/quotes';

/** The listed currencies and their floating EUR rates (the rate applied is the one at processing time). */
export const ratesRoutes: FastifyPluginAsyncZod<{ rates: RatesAdapter }> = async (app, { rates }) => {
  app.get(
    '/api/currencies',
    {
      schema: {
        tags: ['exchange'],
        summary: 'The 24 listed currencies',
        response: {
          200: z.object({
            currencies: z.array(z.object({ code: z.string(), name: z.string(), decimals: z.number(), support: z.enum(['full', 'partial']), ownWalletOnly: z.boolean() })),
          }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return { currencies: CURRENCIES.map((c) => ({ code: c.code, name: c.name, decimals: c.decimals, support: c.support, ownWalletOnly: isOwnWalletOnly(c) })) };
    },
  );

  app.get(
    '/api/rates',
    { schema: { tags: ['exchange'], summary: 'Floating EUR rates now (decimal strings)', response: { 200: z.object({ at: z.string(), rates: z.record(z.string(), z.string()) }) } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=15');
      return rates.current();
    },
  );

  app.get(
    '/api/rates/history',
    {
      schema: {
        tags: ['exchange'],
        summary: 'EUR rate history of one currency, for charts',
        querystring: z.object({ currency: z.string().max(10), days: z.coerce.number().int().min(1).max(365).default(30) }),
        response: { 200: z.object({ currency: z.string(), points: z.array(z.object({ time: z.string(), rate: z.string() })) }), ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const code = request.query.currency.toUpperCase();
      if (!CURRENCIES.some((c) => c.code === code)) throw new ApiError(400, 'validation_failed', 'currency', 'Unknown currency.');
      const to = new Date();
      const from = new Date(to.getTime() - request.query.days * 86_400_000);
      // About 300 points whatever the span: hourly for a week or two, coarser beyond.
      const stepMs = Math.max(3_600_000, Math.ceil((to.getTime() - from.getTime()) / 300 / 3_600_000) * 3_600_000);
      reply.header('cache-control', 'public, max-age=60');
      return { currency: code, points: (await rates.history?.(code, from, to, stepMs)) ?? [] };
    },
  );

  app.post(
    '/api/quotes',
    {
      schema: {
        tags: ['exchange'],
        summary: 'Estimate an order: rate, fee, network fee and amount converted (amount is in currencyFrom)',
        body: z.object({
          type: z.enum(['buy', 'sell', 'swap']),
          currencyFrom: z.string().max(10),
          currencyTo: z.string().max(10),
          amount: z.string().max(40),
          sendToMyWallet: z.boolean().optional(),
        }),
        response: {
          200: z.object({
            rate: z.string(),
            fee: z.string(),
            feeCurrency: z.literal('EUR'),
            networkFee: z.string(),
            networkFeeCurrency: z.string(),
            amountConverted: z.string(),
            amountEur: z.string(),
            rateType: z.literal('floating'),
            note: z.string(),
          }),
          ...errorResponses(400, 409, 503),
        },
      },
    },
    async (request) => {
      const body = request.body;
      const result = quote({
        type: body.type,
        currencyFrom: body.currencyFrom.toUpperCase(),
        currencyTo: body.currencyTo.toUpperCase(),
        amount: body.amount.trim(),
        rates: (await rates.current()).rates,
        toMuntlyWallet: body.sendToMyWallet,
      });
      if (result === 'invalid_pair') throw new ApiError(400, 'validation_failed', 'currencyTo', 'This pair does not fit the order type.');
      if (result === 'invalid_amount') throw new ApiError(400, 'invalid_amount', 'amount');
      if (result === 'network_fee_exceeds_amount') throw new ApiError(409, 'network_fee_exceeds_amount', 'amount');
      if (result === 'rate_unavailable') throw new ApiError(503, 'try_again_soon');
      return { ...result, rateType: 'floating' as const, note: 'Estimate: the rate applied is the one at processing time, not at order time.' };
    },
  );
};
