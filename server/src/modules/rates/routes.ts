import {
  currenciesResponse,
  quoteBody,
  quoteResponse,
  rateHistoryQuery,
  rateHistoryResponse,
  ratesResponse,
} from '#domain/contracts/rates';
import { CURRENCIES, isOwnWalletOnly } from '#domain/currencies';
import { unknownCurrency } from '#domain/errors';
import { quote, quoteDecimals } from '#domain/quotes';
import { errorResponses } from '../../schemas';
import { quoteRefusal, type RatesAdapter } from './service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The listed currencies and their floating EUR rates (the rate applied is the one at processing time). */
export const ratesRoutes: FastifyPluginAsyncZod<{ rates: RatesAdapter }> = async (app, { rates }) => {
  app.get(
    '/api/currencies',
    {
      schema: {
        operationId: 'listCurrencies',
        tags: ['rates'],
        summary: 'The 24 listed currencies',
        response: { 200: currenciesResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return {
        currencies: CURRENCIES.map((c) => ({
          code: c.code,
          name: c.name,
          decimals: c.decimals,
          support: c.support,
          ownWalletOnly: isOwnWalletOnly(c),
        })),
      };
    },
  );

  app.get(
    '/api/rates',
    {
      schema: {
        operationId: 'getRates',
        tags: ['rates'],
        summary: 'Floating EUR rates now (decimal strings)',
        response: { 200: ratesResponse },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=15');
      return rates.current();
    },
  );

  app.get(
    '/api/rates/history',
    {
      schema: {
        operationId: 'getRateHistory',
        tags: ['rates'],
        summary: 'EUR rate history of one currency, for charts',
        querystring: rateHistoryQuery,
        response: { 200: rateHistoryResponse, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const code = request.query.currency.toUpperCase();
      if (!CURRENCIES.some((c) => c.code === code)) throw unknownCurrency('currency');
      const to = new Date();
      const from = new Date(to.getTime() - request.query.days * 86_400_000);
      // About 300 points whatever the span: hourly for a week or two, coarser beyond.
      const stepMs = Math.max(3_600_000, Math.ceil((to.getTime() - from.getTime()) / 300 / 3_600_000) * 3_600_000);
      const points = (await rates.history?.(code, from, to, stepMs)) ?? [];
      // The chart ends at the rate the rates page shows now, not at the last whole hour: the
      // current rate is the last point (and both answers are cached alike).
      const now = await rates.current();
      const rate = now.rates[code];
      const last = points[points.length - 1];
      if (rate && (!last || last.time < now.at)) points.push({ time: now.at, rate });
      reply.header('cache-control', 'public, max-age=15');
      return { currency: code, points, ...(now.sample ? { sample: true } : {}) };
    },
  );

  app.post(
    '/api/quotes',
    {
      schema: {
        operationId: 'createQuote',
        tags: ['rates'],
        summary: 'Estimate an order: rate, fee, network fee and amount converted (amount is in currencyFrom)',
        body: quoteBody,
        response: {
          200: quoteResponse,
          ...errorResponses(400, 409, 503),
        },
      },
    },
    async (request) => {
      const body = request.body;
      const current = await rates.current();
      const result = quote({
        type: body.type,
        currencyFrom: body.currencyFrom.toUpperCase(),
        currencyTo: body.currencyTo.toUpperCase(),
        amount: body.amount.trim(),
        rates: current.rates,
        toMuntlyWallet: body.sendToMyWallet,
      });
      if (typeof result === 'string') throw quoteRefusal(result);
      return {
        ...quoteDecimals(result),
        rateType: 'floating' as const,
        note: 'Estimate: the rate applied is the one at processing time, not at order time.',
        // Local mode's simulated rates: the page marks the estimate as sample data.
        ...(current.sample ? { sample: true } : {}),
      };
    },
  );
};
