/**
 * @jest-environment node
 */
import { OPERATIONS_MAILBOX } from '#domain/contact';
import { VERIFICATION_REQUEST_RATE_LIMIT } from '../src/modules/identity/routes';
import { testApp, databaseKinds, loggedIn, opsCliOutput, type TestApp } from './helpers';
import type { AddressInfo } from 'node:net';

/** A user asks Muntly to enable a verification kind (docs/decisions/0007: kinds are enabled per user on request). */
describe.each(databaseKinds())('verification requests (%s)', (kind) => {
  let t: TestApp;
  let clients = 0;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(() => t.close());

  // Each call from its own client address unless given one, so the per-address limit stays out of the way.
  const ask = (headers: Record<string, string>, k: string, language = 'en', remoteAddress = `10.1.0.${++clients}`) =>
    t.app.inject({
      method: 'POST',
      url: `/api/identity/${k}/request`,
      headers: { ...headers, 'accept-language': language },
      remoteAddress,
    });
  const mailsTo = async (to: string) =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: t.admin })).json().messages as {
      subject: string;
      body: string;
    }[];
  const bankOf = async (headers: Record<string, string>) =>
    (
      (await t.app.inject({ url: '/api/identity', headers })).json().kinds as {
        kind: string;
        phase: string;
        requestedAt: string | null;
      }[]
    ).find((x) => x.kind === 'bank')!;

  it('stores the first request, mails the operations mailbox once, and answers a repeated request with the first', async () => {
    const u = await loggedIn(t, 'asker@muntly.test');
    expect((await bankOf(u)).requestedAt).toBeNull();
    const before = (await mailsTo(OPERATIONS_MAILBOX)).length;

    const first = await ask(u, 'bank');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ kind: 'bank', created: true });
    expect(Date.now() - Date.parse(body.requestedAt)).toBeLessThan(60_000);
    expect(body.kinds.find((x: { kind: string }) => x.kind === 'bank')).toMatchObject({
      phase: 'not_enabled',
      requestedAt: body.requestedAt,
    });
    expect(await bankOf(u)).toMatchObject({ requestedAt: body.requestedAt });

    const mails = await mailsTo(OPERATIONS_MAILBOX);
    expect(mails).toHaveLength(before + 1);
    expect(mails[0]!.subject).toBe('Verification requested: bank account for asker@muntly.test');
    expect(mails[0]!.body).toContain('npm run ops -- enable-verification asker@muntly.test bank');

    const again = await ask(u, 'bank');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ kind: 'bank', created: false, requestedAt: body.requestedAt });
    expect(await mailsTo(OPERATIONS_MAILBOX)).toHaveLength(before + 1);
  });

  it('refuses logged-out callers and unknown kinds', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/identity/bank/request' })).statusCode).toBe(401);
    const u = await loggedIn(t, 'unknown-kind@muntly.test');
    const res = await ask(u, 'passport');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBeDefined();
  });

  it('a kind already enabled needs no request: nothing is stored or mailed', async () => {
    const u = await loggedIn(t, 'enabled@muntly.test');
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/enable',
      headers: t.admin,
      payload: { email: 'enabled@muntly.test', kind: 'bank' },
    });
    const before = (await mailsTo(OPERATIONS_MAILBOX)).length;
    const res = await ask(u, 'bank');
    expect(res.json()).toMatchObject({ created: false, requestedAt: null });
    expect(await mailsTo(OPERATIONS_MAILBOX)).toHaveLength(before);
  });

  it('the operator lists the waiting requests (admin only) and enabling one mails the user in the language they asked in', async () => {
    const u = await loggedIn(t, 'waiting@muntly.test');
    await ask(u, 'mobile', 'de');
    const list = async (query = '') =>
      (await t.app.inject({ url: `/api/ops/verification-requests${query}`, headers: t.admin })).json().requests as {
        email: string;
        kind: string;
        phase: string;
      }[];
    expect(await list()).toContainEqual(
      expect.objectContaining({ email: 'waiting@muntly.test', kind: 'mobile', phase: 'not_enabled' }),
    );

    expect((await t.app.inject({ url: '/api/ops/verification-requests', headers: u })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/ops/verification-requests' })).statusCode).toBe(401);

    await t.app.inject({
      method: 'POST',
      url: '/api/ops/verification/enable',
      headers: t.admin,
      payload: { email: 'waiting@muntly.test', kind: 'mobile' },
    });
    expect(await list()).not.toContainEqual(expect.objectContaining({ email: 'waiting@muntly.test', kind: 'mobile' }));
    expect(await list('?all=true')).toContainEqual(
      expect.objectContaining({ email: 'waiting@muntly.test', kind: 'mobile', phase: 'step_1' }),
    );
    const [mail] = await mailsTo('waiting@muntly.test');
    expect(mail!.subject).toBe('Ihre Verifizierung (Mobilnummer) ist bereit');
  });

  it('npm run ops -- verification-requests prints the waiting requests with the command that enables them', async () => {
    const u = await loggedIn(t, 'cli@muntly.test');
    await ask(u, 'address');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const printed = await opsCliOutput(url, t.admin, (ops) => ops(['verification-requests']));
    expect(printed.join('\n')).toMatch(
      /cli@muntly\.test\s+address\s+waiting: npm run ops -- enable-verification cli@muntly\.test address/,
    );
  });

  it('is rate-limited per client address and per account', async () => {
    const { max } = VERIFICATION_REQUEST_RATE_LIMIT;
    const u = await loggedIn(t, 'busy@muntly.test');
    const statuses: number[] = [];
    for (let i = 0; i <= max; i++) statuses.push((await ask(u, 'business')).statusCode);
    expect(statuses.slice(0, max).every((s) => s === 200)).toBe(true);
    expect(statuses[max]).toBe(429);

    const others: number[] = [];
    for (let i = 0; i <= max; i++)
      others.push((await ask(await loggedIn(t, `crowd${i}@muntly.test`), 'business', 'en', '10.2.0.1')).statusCode);
    expect(others[max]).toBe(429);
  });
});
