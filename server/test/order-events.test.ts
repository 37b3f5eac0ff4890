/**
 * @jest-environment node
 */
import { processOrders } from '../src/modules/orders/settlement';
import { STREAMS_PER_CLIENT, STREAMS_PER_TOPIC } from '../src/sse';
import { payOut, testApp, fixedRates, databaseKinds, type TestApp } from './helpers';
import type { AddressInfo } from 'node:net';

const rates = fixedRates();
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
    admin = t.admin;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());
  const place = async (email: string) =>
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50', email, address: BTC_ADDRESS },
      })
    ).json();

  it('streams the order live from new to completed, then ends', async () => {
    const order = await place('live@example.com');
    const events = await collect(
      `${base}/api/orders/${order.reference.toLowerCase().replace(/-/g, '')}/events?email=LIVE@example.com`,
      async () => {
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/payment-received',
          headers: admin,
          payload: { reason: order.shortReference, amount: '50' },
        });
        await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
        await payOut(t);
      },
    );
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

  it('follows an order by its signed link, which no lookup limit counts: opening it from the email a dozen times in a minute keeps the order', async () => {
    const order = await place('reloads@example.com');
    const from = { remoteAddress: '10.3.0.1' };
    const followByLink = async (reference: string, link: string) => {
      const abort = new AbortController();
      const response = await fetch(`${base}/api/orders/${reference}/events?link=${encodeURIComponent(link)}`, {
        signal: abort.signal,
      });
      // An open order's stream stays open: its first event, then the connection is dropped.
      const text = response.ok
        ? new TextDecoder().decode((await response.body!.getReader().read()).value)
        : await response.text();
      abort.abort();
      return { status: response.status, text };
    };
    for (let i = 0; i < 12; i++) {
      const opened = await t.app.inject({
        method: 'POST',
        url: '/api/orders/open',
        payload: { token: order.link },
        ...from,
      });
      expect(opened.statusCode).toBe(200);
      const followed = await followByLink(order.reference, order.link);
      expect(followed.status).toBe(200);
      expect(followed.text).toContain(`"reference":"${order.reference}"`);
    }
    // The lookups by email and reference were not counted: the owner can still look the order up.
    const lookup = await t.app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      payload: { email: 'reloads@example.com', reference: order.reference },
      ...from,
    });
    expect(lookup.statusCode).toBe(200);
    // One order's link does not follow another order; a forged link follows nothing.
    const other = await place('reloads-other@example.com');
    const crossed = await followByLink(other.reference, order.link);
    expect(crossed.status).toBe(400);
    expect(crossed.text).toContain('link_invalid');
    expect((await followByLink(order.reference, `${order.link.slice(0, -2)}AA`)).status).toBe(400);
  });

  it('limits guesses per email address even when they come from many addresses', async () => {
    const order = await place('target@example.com');
    const guess = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/orders/lookup',
        remoteAddress: `10.0.0.${i}`,
        payload: { email: 'target@example.com', reference: 'AAAA-BBBB-CCCC-DDDD' },
      });
    for (let i = 0; i < 10; i++) expect((await guess(i)).statusCode).toBe(404);
    const blocked = await guess(11);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error).toMatchObject({ code: 'try_again_soon', message: 'Try again soon!' });
    // Even the right reference waits now: the limit does not tell guesses from the owner.
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      remoteAddress: '10.0.1.1',
      payload: { email: 'target@example.com', reference: order.reference },
    });
    expect(right.statusCode).toBe(429);
    // Another customer is not affected.
    const other = await place('bystander@example.com');
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/orders/lookup',
      remoteAddress: '10.0.2.1',
      payload: { email: 'bystander@example.com', reference: other.reference },
    });
    expect(theirs.statusCode).toBe(200);
  });
});

describe('order event streams: per-client cap and shutdown', () => {
  let t: TestApp;
  let base: string;
  let closed = false;
  beforeAll(async () => {
    // Enough lookups a minute for every stream the test opens (the cap is the limit here).
    t = await testApp('pglite', { LOOKUP_LIMIT_PER_MINUTE: '1000' }, { rates });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    if (!closed) await t.close();
  });
  const eventsUrl = async (email: string) => {
    const order = (
      await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50', email, address: BTC_ADDRESS },
      })
    ).json();
    return `${base}/api/orders/${order.reference}/events?email=${email}`;
  };

  it(`holds at most ${STREAMS_PER_CLIENT} open order streams per client address; a closed one frees its place`, async () => {
    // Spread over orders, since one order takes at most STREAMS_PER_TOPIC (next test).
    const urls = await Promise.all(
      Array.from({ length: STREAMS_PER_CLIENT / STREAMS_PER_TOPIC }, (_, i) => eventsUrl(`tabs-${i}@example.com`)),
    );
    const aborts = Array.from({ length: STREAMS_PER_CLIENT }, () => new AbortController());
    const open = await Promise.all(aborts.map((abort, i) => fetch(urls[i % urls.length]!, { signal: abort.signal })));
    expect(open.map((r) => r.status)).toEqual(aborts.map(() => 200));
    expect(open[0]!.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(open[0]!.headers.get('x-content-type-options')).toBe('nosniff'); // the security headers too
    // The cap counts the client's streams of every order, not one order's.
    const refused = await fetch(await eventsUrl('another-tab@example.com'));
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('try_again_soon');
    aborts[0]!.abort();
    // The server notices the closed socket on its own schedule.
    let again = 429;
    const retry = new AbortController();
    for (let i = 0; i < 100 && again === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const response = await fetch(urls[0]!, { signal: retry.signal });
      again = response.status;
      if (again === 429) await response.body?.cancel();
    }
    expect(again).toBe(200);
    retry.abort();
    for (const abort of aborts) abort.abort();
  });

  it(`holds at most ${STREAMS_PER_TOPIC} open streams of one order, whoever opens them; other orders still stream`, async () => {
    const url = await eventsUrl('watched@example.com');
    const aborts = Array.from({ length: STREAMS_PER_TOPIC + 1 }, () => new AbortController());
    // The previous test's streams close on the server's own schedule: wait for each place.
    const openWhenFree = async (signal: AbortSignal) => {
      for (let i = 0; ; i++) {
        const response = await fetch(url, { signal });
        if (response.status !== 429 || i === 100) return response;
        await response.body?.cancel();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const open = [];
    for (const abort of aborts.slice(0, STREAMS_PER_TOPIC)) open.push(await openWhenFree(abort.signal));
    expect(open.map((r) => r.status)).toEqual(open.map(() => 200));
    const refused = await fetch(url, { signal: aborts[STREAMS_PER_TOPIC]!.signal });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('try_again_soon');
    const other = new AbortController();
    expect((await fetch(await eventsUrl('other-order@example.com'), { signal: other.signal })).status).toBe(200);
    other.abort();
    for (const abort of aborts) abort.abort();
  });

  it('ends every open stream when the server shuts down, so closing does not wait for them', async () => {
    const order = await fetch(await eventsUrl('open@example.com'));
    const faucet = await fetch(`${base}/api/faucet/events`);
    const orderReader = order.body!.getReader();
    const faucetReader = faucet.body!.getReader();
    await Promise.all([orderReader.read(), faucetReader.read()]); // both streams are running
    const closing = t.close().then(() => 'closed');
    closed = true;
    expect(
      await Promise.race([
        closing,
        new Promise((resolve) => setTimeout(() => resolve('still closing after 10 s'), 10_000).unref()),
      ]),
    ).toBe('closed');
    const rest = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
      for (;;) if ((await reader.read()).done) return 'ended';
    };
    expect(await Promise.all([rest(orderReader), rest(faucetReader)])).toEqual(['ended', 'ended']);
  });
});

describe('event streams end after their lifetime (EVENT_STREAM_MAX_LIFETIME_MS)', () => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await testApp('pglite', { EVENT_STREAM_MAX_LIFETIME_MS: '1000' }, { rates });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it("ends an open order's stream, telling the browser how soon to reconnect; the reconnection gets the order again", async () => {
    const order = (
      await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        payload: {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '50',
          email: 'patient@example.com',
          address: BTC_ADDRESS,
        },
      })
    ).json();
    const url = `${base}/api/orders/${order.reference}/events?email=patient@example.com`;
    const started = Date.now();
    const text = await (await fetch(url)).text(); // resolves when the server ends the stream
    const lasted = Date.now() - started;
    expect(lasted).toBeGreaterThanOrEqual(900);
    expect(lasted).toBeLessThan(10_000);
    expect(text.startsWith('retry: 2000\n\n')).toBe(true);
    expect(text).toContain(`"reference":"${order.reference}"`);
    expect(text).toContain('"status":"new"'); // still open: the end came from the lifetime
    const again = await fetch(url);
    expect(again.status).toBe(200);
    expect(await again.text()).toContain('event: order');
  });

  it('ends faucet streams after their lifetime too', async () => {
    const started = Date.now();
    const text = await (await fetch(`${base}/api/faucet/events`)).text();
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(text).toContain('event: round');
  });
});
