/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { walletSends, accounts, ledgerAccounts, payouts } from '../src/db/schema';
import { testApp, testUser, databaseKinds, type TestApp } from './helpers';

const valid = {
  name: 'Anna de Vries',
  email: 'Anna@Example.com',
  topic: 'order',
  message: 'My order has not arrived after two days, can you look at it?',
  orderReference: 'abcd efgh ijkl mnop',
};

describe.each(databaseKinds())('support form and status (%s)', (kind) => {
  let t: TestApp;
  let address = 0;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(() => t.close());

  // Each test posts from its own client address, so the rate limit of one does not hit another.
  const post = (payload: unknown, headers: Record<string, string> = {}, remoteAddress = `10.0.0.${++address}`) =>
    t.app.inject({ method: 'POST', url: '/api/support', payload: payload as object, headers, remoteAddress });
  const outboxTo = async (recipient: string) =>
    (
      (await t.app.db.execute(
        sql`select subject, body from outbox where recipient = ${recipient} order by created_at`,
      )) as unknown as { rows: { subject: string; body: string }[] }
    ).rows;

  it('delivers a request to the support mailbox and confirms it to the sender in the page language', async () => {
    const res = await post(valid, { 'accept-language': 'de' });
    expect(res.statusCode).toBe(201);
    const { ticket } = res.json();
    expect(ticket).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

    const [request] = await outboxTo('support@muntly.example');
    expect(request!.subject).toContain(ticket);
    expect(request!.body).toContain('From: Anna de Vries <anna@example.com>');
    expect(request!.body).toContain('Order reference: ABCD-EFGH-IJKL-MNOP');
    expect(request!.body).toContain('Language: de');
    expect(request!.body).toContain(valid.message);

    const [confirmation] = await outboxTo('anna@example.com');
    expect(confirmation!.subject).toContain(ticket);
    expect(confirmation!.body).toContain('Ticketnummer');
    expect(confirmation!.body).toContain('„Ein Tauschauftrag“');
    // Only what Muntly says: not the name or the message typed into the form.
    expect(confirmation!.body).not.toContain('Anna');
    expect(confirmation!.body).not.toContain('two days');
  });

  it('never lets a stranger put words under a user’s anti-phishing phrase (issue 34)', async () => {
    const victim = await testUser(t, 'victim34@muntly.test');
    const set = await t.app.inject({
      method: 'PATCH',
      url: '/api/wallet/security',
      headers: victim.headers,
      payload: { phrase: 'Grüne Eulen 7' },
    });
    expect(set.statusCode).toBe(200);
    const bait = {
      name: 'Muntly Security Team: your account is locked',
      email: ' VICTIM34@Muntly.test ',
      topic: 'security',
      message:
        'Unusual activity. Restore access within 24 hours at https://muntly-restore.example/login or lose your funds.',
    };
    const res = await post(bait, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(201);
    const { ticket } = res.json();
    const mails = (
      (await t.app.db.execute(
        sql`select subject, body, html from outbox where recipient = 'victim34@muntly.test' and subject like ${`%${ticket}%`}`,
      )) as unknown as {
        rows: { subject: string; body: string; html: string }[];
      }
    ).rows;
    expect(mails).toHaveLength(1);
    const [receipt] = mails;
    // Genuine: the phrase on top, the ticket number.
    expect(receipt!.body.startsWith('Your anti-phishing phrase: Grüne Eulen 7')).toBe(true);
    expect(receipt!.body).toContain(ticket);
    // Nothing the stranger typed, in any part, in any spelling.
    for (const part of [receipt!.subject, receipt!.body, receipt!.html]) {
      for (const typed of [
        'Security Team',
        'locked',
        'Unusual',
        'muntly-restore',
        'https://muntly-restore',
        '24 hours',
        'lose your funds',
      ])
        expect(part.toLowerCase()).not.toContain(typed.toLowerCase());
    }
    // The request itself reaches the support mailbox word for word, and never under a phrase, even
    // if an account had the support mailbox's address and set one.
    const inbox = await testUser(t, 'support@muntly.example');
    await t.app.inject({
      method: 'PATCH',
      url: '/api/wallet/security',
      headers: inbox.headers,
      payload: { phrase: 'Support phrase' },
    });
    const again = await post({ ...bait, email: 'someone34@example.com' });
    const forSupport = (await outboxTo('support@muntly.example')).filter((m) =>
      m.subject.includes(again.json().ticket),
    );
    expect(forSupport).toHaveLength(1);
    expect(forSupport[0]!.body).toContain(bait.message);
    expect(forSupport[0]!.body).not.toContain('Support phrase');
  });

  it('answers each invalid field with its error code and the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...valid, name: '  ' }, 'required', 'name'],
      [{ ...valid, email: 'not-an-email' }, 'invalid_email', 'email'],
      [{ ...valid, topic: 'lottery' }, 'required', 'topic'],
      [{ ...valid, message: 'Help!' }, 'too_short', 'message'],
      [{ ...valid, message: 'x'.repeat(5001) }, 'too_long', 'message'],
      [{ ...valid, orderReference: 'ABCD-1234' }, 'invalid_reference', 'orderReference'],
    ];
    for (const [payload, code, field] of cases) {
      const res = await post(payload);
      expect({ status: res.statusCode, ...res.json().error, message: undefined }).toEqual({
        status: 400,
        code,
        field,
        message: undefined,
      });
    }
    const missing = await post({ name: 'Anna' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('validation_failed');
  });

  it('accepts a request without an order reference', async () => {
    const res = await post({ ...valid, orderReference: '', email: 'no-ref@example.com' });
    expect(res.statusCode).toBe(201);
    expect((await outboxTo('no-ref@example.com'))[0]!.body).toContain('Muntly support has received a message');
  });

  it('limits one client to five messages in ten minutes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push((await post({ ...valid, email: `flood${i}@example.com` }, {}, '10.9.9.9')).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    const limited = await post(valid, {}, '10.9.9.9');
    expect(limited.json().error.code).toBe('try_again_soon');
    // How long to wait: in the body for the page, and as Retry-After.
    expect(limited.json().error.retryAfter).toBeGreaterThan(590);
    expect(limited.headers['retry-after']).toBe(String(limited.json().error.retryAfter));
    // Another client is not affected.
    expect((await post(valid, {}, '10.9.9.10')).statusCode).toBe(201);
  });

  it('ignores X-Forwarded-For without a trusted proxy: a client cannot pick a new address to escape the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await post({ ...valid, email: `spoof${i}@example.com` }, { 'x-forwarded-for': `192.0.2.${i}` }, '10.9.8.8'))
          .statusCode,
      );
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it.each(['10.0.0.0/8', '1'])(
    'behind a trusted proxy (TRUST_PROXY=%s), counts each client by its forwarded address, not the proxy',
    async (trusted) => {
      const proxied = await testApp(kind, { TRUST_PROXY: trusted });
      try {
        const viaProxy = (client: string, i: number) =>
          proxied.app.inject({
            method: 'POST',
            url: '/api/support',
            payload: { ...valid, email: `proxied${i}@example.com` },
            headers: { 'x-forwarded-for': client },
            remoteAddress: '10.0.0.1',
          });
        const manyClients: number[] = [];
        for (let i = 0; i < 6; i++) manyClients.push((await viaProxy(`198.51.100.${i}`, i)).statusCode);
        expect(manyClients).toEqual([201, 201, 201, 201, 201, 201]);
        const oneClient: number[] = [];
        for (let i = 0; i < 6; i++) oneClient.push((await viaProxy('203.0.113.7', i)).statusCode);
        expect(oneClient).toEqual([201, 201, 201, 201, 201, 429]);
      } finally {
        await proxied.close();
      }
    },
  );

  it('reports the API, the database, the order worker and the payout worker', async () => {
    const res = await t.app.inject({ url: '/api/status' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const idle = { status: 'ok', waiting: 0, delayed: 0 };
    expect(res.json()).toMatchObject({ api: 'ok', database: 'ok', workers: { orders: idle, payouts: idle } });
  });

  it('reports the database as down, and the workers as unknown, when it does not answer', async () => {
    const { serviceStatus } = await import('../src/modules/support/service');
    const status = await serviceStatus(t.app.db, async () => false);
    expect(status).toMatchObject({
      api: 'ok',
      database: 'down',
      workers: { orders: { status: 'unknown' }, payouts: { status: 'unknown' } },
    });
  });

  it('shows the payout worker as delayed when a payout waits more than five minutes', async () => {
    const db = t.app.db;
    const [owner] = await db
      .insert(accounts)
      .values({ issuer: 'test', subject: 'status-owner', accountKey: 'STATUS22', depositLimitEurMinor: 0n })
      .returning({ id: accounts.id });
    const send = {
      ownerId: owner!.id,
      currency: 'BTC',
      address: 'bc1qexample',
      amount: 1000n,
      networkFee: 10n,
      codeHash: 'x',
      codeExpiresAt: new Date(),
      status: 'processing' as const,
    };
    const sends = await db
      .insert(walletSends)
      .values([
        { ...send, confirmedAt: new Date(Date.now() - 10 * 60_000) },
        { ...send, confirmedAt: new Date() },
        { ...send, confirmedAt: new Date(Date.now() - 20 * 60_000), status: 'completed' },
      ])
      .returning({ id: walletSends.id, confirmedAt: walletSends.confirmedAt, status: walletSends.status });
    const [source] = await db
      .insert(ledgerAccounts)
      .values({ ownerId: owner!.id, currency: 'BTC' })
      .returning({ id: ledgerAccounts.id });
    await db.insert(payouts).values(
      sends.map((s, i) => ({
        rail: 'chain' as const,
        purpose: 'send' as const,
        sendId: s.id,
        currency: 'BTC',
        destination: 'bc1qexample',
        amount: 1000n,
        networkFee: 10n,
        sourceAccountId: source!.id,
        idempotencyKey: `status-test-${i}`,
        createdAt: s.confirmedAt!,
        ...(s.status === 'completed'
          ? { status: 'completed' as const, txid: 'done' }
          : { status: i === 0 ? ('submitted' as const) : ('pending' as const) }),
      })),
    );
    const workers = (await t.app.inject({ url: '/api/status' })).json().workers;
    // The two not yet paid (one with the executor for ten minutes), not the completed one.
    expect(workers.payouts).toEqual({ status: 'delayed', waiting: 2, delayed: 1 });
    expect(workers.orders).toEqual({ status: 'ok', waiting: 0, delayed: 0 });
    await db.delete(payouts);
    await db.delete(walletSends);
  });
});
