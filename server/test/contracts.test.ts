/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { meSchema } from '#domain/contracts/accounts';
import { errorBodySchema } from '#domain/contracts/common';
import { currentRoundResponse, entrySchema, myEntriesResponse } from '#domain/contracts/faucet';
import { identityResponse, type IdentityKind } from '#domain/contracts/identity';
import { myOrdersResponse, orderSchema } from '#domain/contracts/orders';
import { quoteResponse } from '#domain/contracts/rates';
import { balancesResponse, walletAddressSchema, walletSendSchema, type WalletSend } from '#domain/contracts/wallet';
import * as identityService from '../src/modules/identity/service';
import { sendView, type SendRow } from '../src/modules/wallet/sends';
import { bookAddresses, testApp, signToken, bearer, databaseKinds, loggedIn, type TestApp } from './helpers';
import type { InjectOptions } from 'fastify';

/**
 * The API contract is written once, in domain/contracts: the routes validate and document with
 * it, the site reads its types. These tests hold the real server to it: representative answers
 * parse with the domain's schemas (what the site's types promise), and a view that drifts from
 * the contract is refused by the response serializer instead of reaching a browser.
 */

// sends.ts declares no return type for sendView; this line makes a drift from the contract a type error.
const sendViewFits: (row: SendRow) => WalletSend = sendView;

const RATES = { BTC: '80000', ETH: '3000', XRP: '2.10', BCH: '420', LTC: '90', DOGE: '0.19' };
const EXTERNAL_BTC = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

describe.each(databaseKinds())('the API answers what domain/contracts says (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: { current: async () => ({ at: new Date().toISOString(), rates: RATES }) } });
    admin = bearer(await signToken(t.keys, { sub: 'operator', scope: 'use:muntly admin:muntly' }));
  });
  afterAll(() => t.close());
  afterEach(() => jest.restoreAllMocks());

  /** The answer as the browser gets it: JSON text, parsed with the domain schema. */
  const answer = async (options: InjectOptions, status = 200) => {
    const res = await t.app.inject(options);
    expect({ status: res.statusCode, body: res.json() }).toMatchObject({ status });
    return res.json() as unknown;
  };

  it('account and identity: GET /api/me and each identity answer, with step 1 data and a live code', async () => {
    const user = await loggedIn(t, 'contract-identity@muntly.test');
    meSchema.strict().parse(await answer({ url: '/api/me', headers: user }));
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/enable',
      headers: admin,
      payload: { email: 'contract-identity@muntly.test', kind: 'mobile' },
    });
    const submitted = identityResponse.parse(
      await answer({
        method: 'POST',
        url: '/api/identity/mobile',
        headers: user,
        payload: { mobile: '+31 6 12345678' },
      }),
    );
    const mobile = submitted.kinds.find((k) => k.kind === 'mobile')!;
    expect(mobile).toMatchObject({
      phase: 'step_2',
      channel: 'sms',
      data: { mobile: '+31612345678' },
      attemptsLeft: 5,
    });
    identityResponse.parse(await answer({ url: '/api/identity', headers: user }));
  });

  it('wallet: balances, a reception address, a send', async () => {
    const email = 'contract-wallet@muntly.test';
    const user = await loggedIn(t, email);
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/verify',
      headers: admin,
      payload: { email, kind: 'bank' },
    });
    const address = walletAddressSchema.strict().parse(
      await answer(
        {
          method: 'POST',
          url: '/api/wallet/addresses',
          headers: user,
          payload: { currency: 'BTC', label: 'Savings' },
        },
        201,
      ),
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: admin,
      payload: { currency: 'BTC', address: address.address, amount: '0.01' },
    });
    const balances = balancesResponse.parse(await answer({ url: '/api/wallet/balances', headers: user }));
    expect(balances.balances.find((b) => b.currency === 'BTC')!.balance).toBe('0.01000000');
    await bookAddresses(t, { headers: user }, [EXTERNAL_BTC]);
    const send = walletSendSchema.strict().parse(
      await answer(
        {
          method: 'POST',
          url: '/api/wallet/sends',
          headers: user,
          payload: { currency: 'BTC', address: EXTERNAL_BTC, amount: '0.001' },
        },
        201,
      ),
    );
    expect(send).toMatchObject({ status: 'awaiting_code', internal: false });
    expect(typeof sendViewFits).toBe('function');
  });

  it('exchange: a quote, an order as placed, looked up and in the owner’s list', async () => {
    quoteResponse.strict().parse(
      await answer({
        method: 'POST',
        url: '/api/quotes',
        payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50' },
      }),
    );
    const email = 'contract-order@muntly.test';
    const user = await loggedIn(t, email);
    const placed = orderSchema.strict().parse(
      await answer(
        {
          method: 'POST',
          url: '/api/orders',
          headers: user,
          payload: {
            type: 'buy',
            currencyFrom: 'EUR',
            currencyTo: 'BTC',
            amount: '50',
            email,
            address: EXTERNAL_BTC,
          },
        },
        201,
      ),
    );
    expect(placed).toMatchObject({
      status: 'new',
      paymentMethod: 'sepa',
      paymentDetails: { reason: placed.shortReference },
    });
    orderSchema
      .strict()
      .parse(
        await answer({ method: 'POST', url: '/api/orders/lookup', payload: { email, reference: placed.reference } }),
      );
    // The placement's answer carries the order's signed link, which opens it with its email.
    const { link, ...view } = placed;
    expect(
      orderSchema.strict().parse(await answer({ method: 'POST', url: '/api/orders/open', payload: { token: link } })),
    ).toEqual({ ...placed, email });
    const mine = myOrdersResponse.parse(await answer({ url: '/api/me/orders', headers: user }));
    expect(mine.orders).toEqual([{ ...view, email }]);
  });

  it('faucet: the current round, an entry and the player’s results', async () => {
    currentRoundResponse.parse(await answer({ url: '/api/faucet' }));
    await t.app.workers.faucetTicker.start();
    await t.app.workers.faucetTicker.stop();
    const { round } = currentRoundResponse.parse(await answer({ url: '/api/faucet' }));
    expect(round).toMatchObject({ state: 'new', seed: null, winner: null });
    // Registrations open after the round's first 18 seconds: move its schedule 20 seconds back.
    await t.app.db.execute(sql`
      update faucet_rounds set starts_at = starts_at - interval '20 seconds', opens_at = opens_at - interval '20 seconds',
        closes_at = closes_at - interval '20 seconds', draws_at = draws_at - interval '20 seconds', ends_at = ends_at - interval '20 seconds'
      where finished_at is null`);
    const email = 'contract-faucet@muntly.test';
    const user = await loggedIn(t, email);
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/verify',
      headers: admin,
      payload: { email, kind: 'bank' },
    });
    const { address } = (
      await t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers: user, payload: { currency: 'ETH' } })
    ).json() as { address: string };
    entrySchema
      .strict()
      .parse(await answer({ method: 'POST', url: '/api/faucet/entries', headers: user, payload: { address } }, 201));
    const { entries } = myEntriesResponse.parse(await answer({ url: '/api/faucet/me', headers: user }));
    expect(entries).toMatchObject([{ roundId: round!.id, result: 'pending', amount: null }]);
  });

  it('documents the contract at /api/docs, with its descriptions', async () => {
    type Schema = {
      type?: string;
      enum?: string[];
      description?: string;
      properties?: Record<string, Schema>;
      items?: Schema;
    };
    type Doc = {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { content: Record<string, { schema: Schema }> }> }>
      >;
    };
    const doc = (await answer({ url: '/api/docs/json' })) as Doc;
    const ok = (route: string, method: string, status = '200') =>
      doc.paths[route]![method]!.responses[status]!.content['application/json']!.schema.properties!;
    expect(ok('/api/identity', 'get').kinds!.items!.properties!.channel).toEqual({
      type: 'string',
      enum: ['post', 'bank', 'sms', 'email', 'document'],
      description: 'How step 2 reaches the user',
    });
    expect(ok('/api/orders', 'post', '201').reference!.description).toBe(orderSchema.shape.reference.description);
    expect(Object.keys(ok('/api/wallet/sends/{id}', 'get'))).toEqual(Object.keys(walletSendSchema.shape));
  });

  describe('a view that drifts from the contract', () => {
    const drifted = (change: Record<string, unknown>) =>
      jest.spyOn(identityService, 'describeIdentity').mockResolvedValue([{ ...ANY_KIND, ...change } as IdentityKind]);

    it('is refused by the response serializer: a 500 without the drifted data, never a wrong shape for the site', async () => {
      const user = await loggedIn(t, 'contract-drift@muntly.test');
      drifted({ phase: 'step_3', data: { mobile: '+31612345678' } });
      const res = await t.app.inject({ url: '/api/identity', headers: user });
      expect(res.statusCode).toBe(500);
      expect(errorBodySchema.parse(res.json()).error.code).toBe('internal_error');
      expect(res.body).not.toContain('+31612345678');
    });

    it('cannot add a field the contract does not name: it is left out of the answer', async () => {
      const user = await loggedIn(t, 'contract-extra@muntly.test');
      drifted({ codeHash: 'secret-hash' });
      const res = await t.app.inject({ url: '/api/identity', headers: user });
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('secret-hash');
      identityResponse.parse(res.json());
    });
  });
});

const ANY_KIND: IdentityKind = {
  kind: 'mobile',
  phase: 'step_1',
  channel: 'sms',
  data: null,
  requestedAt: null,
  submittedAt: null,
  verifiedAt: null,
  retainUntil: null,
  dataDeletedAt: null,
  rejection: null,
  codeExpiresAt: null,
  attemptsLeft: null,
  nextCodeAt: null,
};

describe('routes take their schemas from domain/contracts', () => {
  // A route that builds its own zod schema would be a second copy of the contract, free to drift.
  it('no route file imports zod', () => {
    const modules = path.resolve(__dirname, '../src/modules');
    const routeFiles = fs
      .readdirSync(modules, { recursive: true, encoding: 'utf8' })
      .filter((file) => /routes\.ts$/.test(file))
      .map((file) => path.join(modules, file));
    expect(routeFiles.length).toBeGreaterThanOrEqual(10);
    const importingZod = routeFiles.filter((file) => /from 'zod'/.test(fs.readFileSync(file, 'utf8')));
    expect(importingZod).toEqual([]);
  });
});
