/**
 * @jest-environment node
 */
import type { AddressInfo } from 'node:net';
import { testApp, signToken, bearer, databaseKinds, type TestApp } from './helpers';
import { processOrders } from '../src/modules/orders/processing';
import { simulatedChain } from '../src/modules/chain/adapter';
import type { RatesAdapter } from '../src/modules/rates/service';

const rates: RatesAdapter = { current: async () => ({ at: 'now', rates: { BTC: '80000' } }) };
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

/** Reads a Server-Sent Events stream until it ends, collecting the order events. */
async function collect(url: string, onFirst: () => Promise<void>): Promise<{ status: string }[]> {
  const response = await fetch(url);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: { status: string }[] = [];
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (block.startsWith('event: order') && data) {
        events.push(JSON.parse(data.slice(6)));
        if (events.length === 1) await onFirst();
      }
    }
  }
}

describe.each(databaseKinds())('order events and lookup limits (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let base: string;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
    admin = bearer(await signToken(t.keys, { sub: 'operator', scope: 'use:muntly admin:muntly' }));
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());
  const place = async (email: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/orders', payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50', email, address: BTC_ADDRESS } })).json();

  it('streams the order live from new to completed, then ends', async () => {
    const order = await place('live@example.com');
    const events = await collect(`${base}/api/orders/${order.reference.toLowerCase().replace(/-/g, '')}/events?email=LIVE@example.com`, async () => {
      await t.app.inject({ method: 'POST', url: '/api/ops/payment-received', headers: admin, payload: { reason: order.shortReference, amount: '50' } });
      await processOrders(t.database.db, { rates, chain: simulatedChain() });
    });
    expect(events[0]).toMatchObject({ reference: order.reference, status: 'new' });
    expect(events.at(-1)).toMatchObject({ status: 'completed_success', actualAmountConverted: '0.00058000' });
  });

  it('needs the same proof as the lookup: a wrong email is the uniform 404', async () => {
    const order = await place('proof@example.com');
    const wrong = await t.app.inject({ url: `/api/orders/${order.reference}/events?email=other@example.com` });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().error.code).toBe('not_found');
    expect((await t.app.inject({ url: `/api/orders/${order.reference}/events` })).statusCode).toBe(400);
  });

  it('limits guesses per email address even when they come from many addresses', async () => {
    const order = await place('target@example.com');
    const guess = (i: number) =>
      t.app.inject({ method: 'POST', url: '/api/orders/lookup', remoteAddress: `10.0.0.${i}`, payload: { email: 'target@example.com', reference: 'AAAA-BBBB-CCCC-DDDD' } });
    for (let i = 0; i < 10; i++) expect((await guess(i)).statusCode).toBe(404);
    const blocked = await guess(11);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatchObject({ code: 'try_again_soon', message: 'Try again soon!' });
    // Even the right reference waits now: the limit does not tell guesses from the owner.
    const right = await t.app.inject({ method: 'POST', url: '/api/orders/lookup', remoteAddress: '10.0.1.1', payload: { email: 'target@example.com', reference: order.reference } });
    expect(right.statusCode).toBe(429);
    // Another customer is not affected.
    const other = await place('bystander@example.com');
    const theirs = await t.app.inject({ method: 'POST', url: '/api/orders/lookup', remoteAddress: '10.0.2.1', payload: { email: 'bystander@example.com', reference: other.reference } });
    expect(theirs.statusCode).toBe(200);
  });
});
