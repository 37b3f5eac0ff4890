/**
 * @jest-environment node
 */
import http from 'node:http';
import net from 'node:net';
import { testApp, testUser, fixedRates, databaseKinds, type TestApp, type TestUser } from './helpers';
import type { AddressInfo } from 'node:net';

/** Issue 16: what every request meets before any route, and the HTTP server's own limits. */
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const REFERENCE = 'ABCD-EFGH-JKLM-NPQR';

describe.each(databaseKinds())('text the database cannot store (%s)', (kind) => {
  let t: TestApp;
  let user: TestUser;
  let addressId: string;
  let client = 0;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
    user = await testUser(t, 'edge@example.com', { address: 'BTC' });
    const { addresses } = (await t.app.inject({ url: '/api/wallet/addresses', headers: user.headers })).json() as {
      addresses: { id: string }[];
    };
    addressId = addresses[0]!.id;
  }, 120_000);
  afterAll(() => t.close());

  // Each request from its own client address: the lookup and support limits count per client.
  const send = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
      remoteAddress: `10.16.0.${++client}`,
    });

  const support = {
    name: 'Ana',
    email: 'ana@example.com',
    topic: 'order',
    message: 'Hello, my order has not arrived yet.',
  };
  const order = {
    type: 'buy',
    currencyFrom: 'EUR',
    currencyTo: 'BTC',
    amount: '10',
    email: 'buyer@example.com',
    address: BTC_ADDRESS,
  };
  const cases: [string, 'GET' | 'POST' | 'PATCH', () => string, unknown, boolean, string][] = [
    ['order email', 'POST', () => '/api/orders', { ...order, email: 'buyer\u0000@example.com' }, false, 'email'],
    ['order address', 'POST', () => '/api/orders', { ...order, address: `${BTC_ADDRESS}\u0000` }, false, 'address'],
    [
      'lookup email',
      'POST',
      () => '/api/orders/lookup',
      { email: 'a\u0000@example.com', reference: REFERENCE },
      false,
      'email',
    ],
    [
      'lookup reference',
      'POST',
      () => '/api/orders/lookup',
      { email: 'a@example.com', reference: `${REFERENCE}\u0000` },
      false,
      'reference',
    ],
    ['support message', 'POST', () => '/api/support', { ...support, message: 'Hi\u0000there' }, false, 'message'],
    ['support name', 'POST', () => '/api/support', { ...support, name: 'A\u0000' }, false, 'name'],
    ['address label', 'PATCH', () => `/api/wallet/addresses/${addressId}`, { label: 'Savings\u0000' }, true, 'label'],
    ['new address label', 'POST', () => '/api/wallet/addresses', { currency: 'BTC', label: '\u0000' }, true, 'label'],
    [
      'send label',
      'POST',
      () => '/api/wallet/sends',
      { currency: 'BTC', address: EXTERNAL, amount: '0.001', label: 'Rent\u0000' },
      true,
      'label',
    ],
    [
      'send code',
      'POST',
      () => '/api/wallet/sends/00000000-0000-0000-0000-000000000000/confirm',
      { code: 'ABCD\u0000' },
      true,
      'code',
    ],
    ['identity field', 'POST', () => '/api/identity/mobile', { mobile: '+31 6 1234\u00005678' }, true, 'mobile'],
    ['faucet address', 'POST', () => '/api/faucet/entries', { address: `${BTC_ADDRESS}\u0000` }, true, 'address'],
    [
      'a nested value',
      'POST',
      () => '/api/identity/mobile',
      { extra: { deep: ['ok', 'x\u0000'] } },
      true,
      'extra.deep.1',
    ],
    ['a key', 'POST', () => '/api/support', { ...support, 'x\u0000': 'y' }, false, 'body'],
    ['transactions cursor', 'GET', () => '/api/wallet/transactions?cursor=%00abc', undefined, true, 'cursor'],
    [
      'order events email',
      'GET',
      () => `/api/orders/${REFERENCE}/events?email=a%00%40example.com`,
      undefined,
      false,
      'email',
    ],
    [
      'order events reference',
      'GET',
      () => '/api/orders/ABCD%00/events?email=a%40example.com',
      undefined,
      false,
      'reference',
    ],
    ['faucet round id', 'GET', () => '/api/faucet/rounds/1%00', undefined, false, 'id'],
    ['an operator query', 'GET', () => '/api/ops/outbox?to=a%00%40example.com', undefined, true, 'to'],
  ];

  it.each(cases)(
    'a NUL in the %s answers 400 validation_failed naming the field',
    async (_name, method, url, payload, auth, field) => {
      const headers = auth ? (url().startsWith('/api/ops') ? t.admin : user.headers) : {};
      const res = await send(method, url(), payload, headers);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_failed', field });
    },
  );

  it.each([
    ['an unpaired high surrogate', '"\\ud800"'],
    ['an unpaired low surrogate', '"x\\udc00y"'],
    ['two high surrogates', '"\\ud800\\ud800"'],
  ])('%s in a JSON string answers 400 validation_failed', async (_name, literal) => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: { 'content-type': 'application/json' },
      payload: `{"name":"Ana","email":${literal},"topic":"order","message":"Hello"}`,
      remoteAddress: `10.16.1.${++client}`,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'validation_failed', field: 'email' });
  });

  it('still takes text with emoji (surrogate pairs), accents and other scripts', async () => {
    const res = await send('POST', '/api/support', {
      ...support,
      name: 'Zoë 💸 Ґанна',
      message: 'Привіт 👋🏽 — ça va ? Mein Auftrag ist noch nicht angekommen.',
    });
    expect(res.json()).not.toHaveProperty('error');
    expect(res.statusCode).toBe(201);
    const label = await send('PATCH', `/api/wallet/addresses/${addressId}`, { label: 'Épargne 💰' }, user.headers);
    expect(label.statusCode).toBe(200);
  });
});

describe('the edge of the API (pglite)', () => {
  let t: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    t = await testApp('pglite', {}, { rates: fixedRates() });
    user = await testUser(t, 'private@example.com', { address: 'BTC', deposit: '0.01', book: [EXTERNAL] });
  }, 120_000);
  afterAll(() => t.close());

  describe('personal responses are never cached', () => {
    it('each answer for a logged-in user carries Cache-Control: no-store', async () => {
      const send = (
        await t.app.inject({
          method: 'POST',
          url: '/api/wallet/sends',
          headers: user.headers,
          payload: { currency: 'BTC', address: EXTERNAL, amount: '0.001' },
        })
      ).json() as { id: string };
      const requests: { method?: 'GET' | 'POST'; url: string; payload?: object }[] = [
        { url: '/api/me' },
        { url: '/api/identity' },
        { url: '/api/me/orders' },
        { url: '/api/wallet/balances' },
        { url: '/api/wallet/addresses' },
        { url: '/api/wallet/transactions' },
        { url: '/api/wallet/transactions?format=csv' },
        { url: `/api/wallet/sends/${send.id}` },
        { url: '/api/faucet/me' },
        { url: '/api/wallet/security' },
        { url: '/api/wallet/address-book' },
        { method: 'POST', url: '/api/wallet/addresses', payload: { currency: 'ETH' } },
      ];
      const answers = [];
      for (const request of requests) {
        const res = await t.app.inject({
          method: request.method ?? 'GET',
          url: request.url,
          headers: user.headers,
          ...(request.payload ? { payload: request.payload } : {}),
        });
        answers.push({ url: request.url, status: res.statusCode < 300, cacheControl: res.headers['cache-control'] });
      }
      expect(answers).toEqual(
        requests.map((request) => ({ url: request.url, status: true, cacheControl: 'no-store' })),
      );
    });

    it('an order placed without a login, and an order looked up by email and reference, too', async () => {
      const placed = await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        payload: {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '10',
          email: 'anon@example.com',
          address: BTC_ADDRESS,
        },
        remoteAddress: '10.17.0.1',
      });
      expect(placed.statusCode).toBe(201);
      expect(placed.headers['cache-control']).toBe('no-store');
      const lookup = await t.app.inject({
        method: 'POST',
        url: '/api/orders/lookup',
        payload: { email: 'anon@example.com', reference: placed.json().reference },
        remoteAddress: '10.17.0.2',
      });
      expect(lookup.statusCode).toBe(200);
      expect(lookup.headers['cache-control']).toBe('no-store');
      const miss = await t.app.inject({
        method: 'POST',
        url: '/api/orders/lookup',
        payload: { email: 'anon@example.com', reference: REFERENCE },
        remoteAddress: '10.17.0.3',
      });
      expect(miss.headers['cache-control']).toBe('no-store');
    });

    it('public answers keep their caching', async () => {
      expect((await t.app.inject({ url: '/api/rates' })).headers['cache-control']).toMatch(/^public/);
      expect((await t.app.inject({ url: '/api/exchange/config' })).headers['cache-control']).toMatch(/^public/);
    });
  });

  describe('/dev/mailbox (local mode)', () => {
    it.each(['127.0.0.1', '::1', '::ffff:127.0.0.1'])(
      'answers a client on this machine (%s)',
      async (remoteAddress) => {
        const res = await t.app.inject({ url: '/dev/mailbox', remoteAddress });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('Dev mailbox');
      },
    );

    it('shows an email as its HTML part in a sandboxed frame, the text part beside it', async () => {
      const payload = {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '25',
        email: 'mailbox-html@example.com',
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      };
      const order = (await t.app.inject({ method: 'POST', url: '/api/orders', payload })).json();
      const res = await t.app.inject({ url: '/dev/mailbox?to=mailbox-html%40example.com', remoteAddress: '127.0.0.1' });
      // The frame runs nothing and is of no origin; its document arrives escaped in the attribute.
      expect(res.body).toContain(
        `<iframe sandbox title="Your Muntly order ${order.reference} (HTML)" srcdoc="&lt;!DOCTYPE html&gt;&lt;html lang=&quot;en&quot; dir=&quot;ltr&quot;&gt;`,
      );
      expect(res.body).toMatch(
        /<details><summary>Text version<\/summary><pre>Thank you for your order\.[^<]*IBAN: DE89 3704 0044 0532 0130 00/,
      );
    });

    it.each(['10.0.0.7', '192.168.1.20', '::ffff:10.0.0.7', '2001:db8::1', '127.0.0.2'])(
      'answers 404 to any other address (%s), whatever X-Forwarded-For claims',
      async (remoteAddress) => {
        const res = await t.app.inject({
          url: '/dev/mailbox?to=private%40example.com',
          remoteAddress,
          headers: { 'x-forwarded-for': '127.0.0.1' },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
        expect(res.body).not.toContain('private@example.com');
      },
    );
  });
});

/** Everything a raw socket receives until the server closes it (or `limitMs` passes: then `closed` is false). */
function exchange(
  port: number,
  write: (socket: net.Socket) => void,
  limitMs: number,
): Promise<{ text: string; closed: boolean; afterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false, afterMs: Date.now() - started });
    }, limitMs);
    socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true, afterMs: Date.now() - started });
    });
    socket.on('connect', () => write(socket));
  });
}

const bodyOf = (text: string) =>
  JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };

describe('the HTTP server on a real socket (pglite)', () => {
  let t: TestApp;
  let port: number;
  const drips: NodeJS.Timeout[] = [];
  beforeAll(async () => {
    // Short limits so the test takes seconds: a whole request in 800 ms, headers in 400 ms.
    t = await testApp('pglite', {
      HTTP_REQUEST_TIMEOUT_MS: '800',
      HTTP_HEADERS_TIMEOUT_MS: '400',
      HTTP_TIMEOUT_CHECK_INTERVAL_MS: '100',
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  }, 120_000);
  afterAll(async () => {
    for (const drip of drips) clearInterval(drip);
    await t.close();
  });

  /** Writes `chunks` one by one, every `everyMs`, and then keeps the connection open. */
  const drip = (socket: net.Socket, chunks: string[], everyMs: number) => {
    const timer = setInterval(() => {
      if (socket.destroyed) return clearInterval(timer);
      const next = chunks.shift();
      if (next !== undefined) socket.write(next);
    }, everyMs);
    drips.push(timer);
  };

  it('headers too large answer 431 in the API error shape', async () => {
    const { text, closed } = await exchange(
      port,
      (socket) => socket.write(`GET /api/health HTTP/1.1\r\nHost: localhost\r\nCookie: ${'a'.repeat(20_000)}\r\n\r\n`),
      5000,
    );
    expect(closed).toBe(true);
    expect(text).toMatch(/^HTTP\/1\.1 431 /);
    expect(text.toLowerCase()).toContain('content-type: application/json');
    expect(bodyOf(text).error).toMatchObject({ code: 'headers_too_large', message: expect.any(String) });
  });

  it('bytes that are not HTTP answer 400 bad_request in the API error shape', async () => {
    const { text } = await exchange(port, (socket) => socket.write('HELLO THERE\r\n\r\n'), 5000);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(text).error.code).toBe('bad_request');
  });

  it('a body sent a byte at a time is cut off with 408 request_timeout', async () => {
    const { text, closed, afterMs } = await exchange(
      port,
      (socket) => {
        socket.write(
          'POST /api/support HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{',
        );
        drip(
          socket,
          Array.from({ length: 400 }, () => ' '),
          150,
        );
      },
      10_000,
    );
    expect(closed).toBe(true);
    expect(afterMs).toBeLessThan(5000);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(text).error.code).toBe('request_timeout');
  });

  it('headers sent a byte at a time are cut off too', async () => {
    const headers = `GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    const { closed, afterMs, text } = await exchange(port, (socket) => drip(socket, headers.split(''), 100), 10_000);
    expect(closed).toBe(true);
    expect(afterMs).toBeLessThan(5000);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('a live event stream outlives the request timeouts: they limit receiving the request, not the response', async () => {
    const received: string[] = [];
    let ended = false;
    const request = http.get({ host: '127.0.0.1', port, path: '/api/faucet/events' }, (response) => {
      expect(response.statusCode).toBe(200);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => received.push(chunk));
      response.on('close', () => (ended = true));
    });
    request.on('error', () => undefined);
    // Three times the whole-request limit, and many checking rounds.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(ended).toBe(false);
    expect(received.join('')).toContain('event: round');
    request.destroy();
  });
});
