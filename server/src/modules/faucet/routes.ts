import fp from 'fastify-plugin';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { ensureAccount } from '../accounts/service';
import { errorResponses } from '../../schemas';
import { ApiError } from '../../errors';
import type { RatesAdapter } from '../rates/service';
import { FAUCET_STATES } from '../../../../domain/faucet';
import { currentView, enter, myEntries, roundById, type FaucetSettings } from './service';
import { createFaucetTicker, tickMsFor, type FaucetTicker } from './ticker';
import { FaucetEvents, STREAMS_PER_ADDRESS } from './events';

/**
 * The faucet's public API: the current round, any past round, live updates, and entering (logged
 * in). The ticker is created here but started by the process (main.ts), so that tests and tools
 * building the app do not tick unless they ask to.
 */
declare module 'fastify' {
  interface FastifyInstance {
    faucet: { ticker: FaucetTicker; events: FaucetEvents; settings: FaucetSettings };
  }
}

const iso = z.string().describe('ISO 8601 time');
const roundSchema = z.object({
  id: z.number().int(),
  state: z.enum(FAUCET_STATES),
  gameOverReason: z.enum(['paused', 'budget']).nullable(),
  endsAt: iso.nullable().describe('When the current phase ends (the countdown); null in game_over'),
  schedule: z.object({ startsAt: iso, opensAt: iso.nullable(), closesAt: iso.nullable(), drawsAt: iso.nullable(), endsAt: iso.nullable() }),
  serverTime: iso.describe('The server clock, for the countdown'),
  seedHash: z.string().nullable().describe('SHA-256 of the secret seed, published when the round starts'),
  seed: z.string().nullable().describe('The seed (hex), revealed with the winner'),
  entriesHash: z.string().nullable().describe('SHA-256 of the sorted tickets joined by newlines, with the winner'),
  reward: z.object({ eur: z.string(), amounts: z.record(z.string(), z.string()).describe('The reward at the current rate per currency') }),
  playerCount: z.number().int(),
  players: z.array(z.object({ ticket: z.string().describe('SHA-256 of "<roundId>:<address>"'), address: z.string().describe('masked'), currency: z.string() })),
  winner: z.object({ ticket: z.string(), address: z.string(), currency: z.string(), amount: z.string(), rate: z.string() }).nullable(),
  paused: z.boolean(),
});

const routes: FastifyPluginAsyncZod<{ rates: RatesAdapter }> = async (app, { rates }) => {
  app.get(
    '/api/faucet',
    {
      schema: {
        tags: ['faucet'],
        summary: 'The current round (null before the faucet first ticked)',
        response: { 200: z.object({ round: roundSchema.nullable() }) },
      },
    },
    async () => ({ round: await currentView(app.db, rates) }),
  );

  app.get(
    '/api/faucet/rounds/:id',
    {
      schema: {
        tags: ['faucet'],
        summary: 'Any round, with its seed and winner once announced (to verify the draw)',
        params: z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) }),
        response: { 200: z.object({ round: roundSchema }), ...errorResponses(400, 404) },
      },
    },
    async (request) => ({ round: await roundById(app.db, rates, request.params.id) }),
  );

  app.get(
    '/api/faucet/events',
    {
      schema: {
        tags: ['faucet'],
        summary: `Live updates (text/event-stream): an event "round" with { round } on connect and whenever the round changes; at most ${STREAMS_PER_ADDRESS} open streams per client address`,
        response: errorResponses(429),
      },
    },
    async (request, reply) => {
      if (!app.faucet.events.accepts(request.ip)) throw new ApiError(429, 'try_again_soon');
      // The stream outlives the handler: fastify hands the socket over (hooks that run on send,
      // such as compression, must not buffer it), so the headers set so far are copied by hand.
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        // nginx and similar proxies would otherwise buffer the stream.
        'x-accel-buffering': 'no',
      });
      try {
        await app.faucet.events.add(reply.raw, request.ip);
      } catch (error) {
        request.log.warn({ err: error }, 'faucet events: could not start the stream');
        reply.raw.end();
      }
    },
  );

  app.post(
    '/api/faucet/entries',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['faucet'],
        summary: 'Enter the current round with one of your reception addresses (BTC, ETH, XRP, BCH, LTC, DOGE); only while registrations are open, once per round',
        security: [{ bearer: [] }],
        body: z.object({ address: z.string().min(1).max(200) }),
        response: {
          201: z.object({ roundId: z.number().int(), ticket: z.string(), address: z.string(), currency: z.string() }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (request, reply) => {
      const account = await ensureAccount(app.db, request.auth!);
      const entry = await enter(app.db, { accountId: account.id, address: request.body.address });
      app.faucet.events.poke();
      return reply.code(201).send(entry);
    },
  );

  app.get(
    '/api/faucet/me',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['faucet'],
        summary: 'Your recent entries and how each round ended for you',
        security: [{ bearer: [] }],
        response: {
          200: z.object({
            entries: z.array(
              z.object({
                roundId: z.number().int(),
                ticket: z.string(),
                address: z.string(),
                currency: z.string(),
                createdAt: iso,
                result: z.enum(['pending', 'won', 'lost']),
                amount: z.string().nullable(),
              }),
            ),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (request) => {
      const account = await ensureAccount(app.db, request.auth!);
      return { entries: await myEntries(app.db, account.id) };
    },
  );
};

export const faucetPlugin = fp<{ database: Database; rates: RatesAdapter; settings: FaucetSettings }>(async (app, { database, rates, settings }) => {
  const events = new FaucetEvents(database.db, rates, tickMsFor(settings.roundMs), app.log);
  const ticker = createFaucetTicker({ database, rates, settings, log: app.log, onAdvance: () => events.poke() });
  app.decorate('faucet', { ticker, events, settings });
  // Before the server stops waiting for requests: open streams would hold it, and the ticker
  // must finish its transaction before the database closes.
  app.addHook('preClose', async () => {
    events.close();
    await ticker.stop();
  });
  await app.register(routes, { rates });
});
