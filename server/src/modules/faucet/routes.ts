import fp from 'fastify-plugin';
import {
  currentRoundResponse,
  entrySchema,
  enterBody,
  exportQuery,
  myEntriesResponse,
  roundParams,
  roundResponse,
  roundsQuery,
  roundsResponse,
  seedChainsResponse,
} from '#domain/contracts/faucet';
import { errorResponses } from '../../schemas';
import { STREAMS_PER_CLIENT } from '../../sse';
import { enter, myEntries } from './entries';
import { FaucetEvents } from './events';
import { tickMsFor, type FaucetSettings } from './service';
import { announcedRounds, currentView, exportRounds, roundById, seedChains } from './views';
import type { Database } from '../../db/client';
import type { RatesAdapter } from '../rates/service';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The faucet's public API: the current round, any past round, live updates, and entering (logged
 * in). The ticker that moves rounds along is background work (server/src/workers/faucet-ticker.ts).
 */
declare module 'fastify' {
  interface FastifyInstance {
    faucet: { events: FaucetEvents; settings: FaucetSettings };
  }
}

const routes: FastifyPluginAsyncZod<{ rates: RatesAdapter }> = async (app, { rates }) => {
  app.get(
    '/api/faucet',
    {
      schema: {
        operationId: 'getFaucetRound',
        tags: ['faucet'],
        summary: 'The current round (null before the faucet first ticked)',
        response: { 200: currentRoundResponse },
      },
    },
    async () => ({ round: await currentView(app.db, rates) }),
  );

  app.get(
    '/api/faucet/rounds',
    {
      schema: {
        operationId: 'listFaucetRounds',
        tags: ['faucet'],
        summary:
          'The round history: announced rounds, newest first, each with its tickets, seed, chain link, block mixed in and winner',
        querystring: roundsQuery,
        response: { 200: roundsResponse, ...errorResponses(400) },
      },
    },
    async (request) => announcedRounds(app.db, rates, request.query),
  );

  app.get(
    '/api/faucet/rounds/export',
    {
      schema: {
        operationId: 'exportFaucetRounds',
        tags: ['faucet'],
        summary:
          'Rounds from..to (at most 500) as one JSON file to check with `npm run verify:faucet -- <file>` (domain/faucet.ts RoundsFile)',
        querystring: exportQuery,
      },
    },
    async (request, reply) => {
      const { from, to } = request.query;
      const file = await exportRounds(app.db, from, to);
      return reply
        .type('application/json; charset=utf-8')
        .header('content-disposition', `attachment; filename="muntly-faucet-rounds-${from}-${to}.json"`)
        .send(JSON.stringify(file));
    },
  );

  app.get(
    '/api/faucet/seed-chains',
    {
      schema: {
        operationId: 'listFaucetSeedChains',
        tags: ['faucet'],
        summary: 'Every seed chain’s anchor (seed_0), published before the chain’s first round, oldest first',
        response: { 200: seedChainsResponse },
      },
    },
    async () => seedChains(app.db),
  );

  app.get(
    '/api/faucet/rounds/:id',
    {
      schema: {
        operationId: 'getFaucetRoundById',
        tags: ['faucet'],
        summary: 'Any round, with its seed and winner once announced (to verify the draw)',
        params: roundParams,
        response: { 200: roundResponse, ...errorResponses(400, 404) },
      },
    },
    async (request) => ({ round: await roundById(app.db, rates, request.params.id) }),
  );

  app.get(
    '/api/faucet/events',
    {
      schema: {
        operationId: 'streamFaucetEvents',
        tags: ['faucet'],
        summary: `Live updates (text/event-stream): an event "round" with { round } on connect and whenever the round changes; at most ${STREAMS_PER_CLIENT} open streams per client address`,
        response: errorResponses(429),
      },
    },
    async (request, reply) => {
      const stream = app.faucet.events.streams.start(request, reply);
      try {
        await app.faucet.events.add(stream);
      } catch (error) {
        request.log.warn({ err: error }, 'faucet events: could not start the stream');
        stream.close();
      }
    },
  );

  app.post(
    '/api/faucet/entries',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'enterFaucetRound',
        tags: ['faucet'],
        summary:
          'Enter the current round with one of your reception addresses (BTC, ETH, XRP, BCH, LTC, DOGE); only while registrations are open, once per round',
        security: [{ bearer: [] }],
        body: enterBody,
        response: { 201: entrySchema, ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const account = request.account!;
      const entry = await enter(app.db, { accountId: account.id, address: request.body.address });
      app.faucet.events.poke();
      return reply.code(201).send(entry);
    },
  );

  app.get(
    '/api/faucet/me',
    {
      onRequest: app.withAccount,
      schema: {
        operationId: 'listMyFaucetEntries',
        tags: ['faucet'],
        summary: 'Your recent entries and how each round ended for you',
        security: [{ bearer: [] }],
        response: { 200: myEntriesResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => {
      const account = request.account!;
      return { entries: await myEntries(app.db, account.id) };
    },
  );
};

export const faucetPlugin = fp<{ database: Database; rates: RatesAdapter; settings: FaucetSettings }>(
  async (app, { database, rates, settings }) => {
    const events = new FaucetEvents(app.eventStreams(), database.db, rates, tickMsFor(settings.roundMs), app.log);
    app.decorate('faucet', { events, settings });
    // The SSE plugin closes the open streams on shutdown; the ticker is a worker (server/src/workers).
    app.addHook('preClose', async () => events.close());
    await app.register(routes, { rates });
  },
);
