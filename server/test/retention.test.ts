/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { applyRetention } from '../src/modules/retention/service';
import { ageSentCodes, ONE_TIME_CODE, testApp, fixedRates, databaseKinds, loggedIn, opsCliOutput, type TestApp } from './helpers';
import type { IdentityResponse } from '../../domain/contracts/identity';

/** The privacy policy's retention promises: identity data after its retention date, support messages after two years. */
const rates = fixedRates();
const DAY = 86_400_000;
const yearsFromNow = (years: number, days = 0) => {
  const date = new Date();
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return new Date(date.getTime() + days * DAY);
};

describe.each(databaseKinds())('retention (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let address = 0;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
    admin = t.admin;
  });
  afterAll(() => t.close());

  const user = (email: string) => loggedIn(t, email);
  const view = async (headers: Record<string, string>, k: string) => ((await t.app.inject({ url: '/api/identity', headers })).json() as IdentityResponse).kinds.find((x) => x.kind === k)!;
  const enable = (email: string, k: string) => t.app.inject({ method: 'POST', url: '/api/ops/verification/enable', headers: admin, payload: { email, kind: k } });
  const submit = (headers: Record<string, string>, k: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/identity/${k}`, headers, payload });
  const confirm = (headers: Record<string, string>, k: string, code: string) => t.app.inject({ method: 'POST', url: `/api/identity/${k}/confirm`, headers, payload: { code } });
  const lastBody = async (to: string) => (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: admin })).json().messages[0].body as string;
  const outboxCount = async (recipient: string) =>
    Number(((await t.app.db.execute(sql`select count(*) as n from outbox where lower(recipient) = lower(${recipient})`)) as unknown as { rows: { n: string }[] }).rows[0]!.n);
  const auditCount = async (action: string) => Number(((await t.app.db.execute(sql`select count(*) as n from audit_log where action = ${action}`)) as unknown as { rows: { n: string }[] }).rows[0]!.n);
  const support = (email: string, orderReference = '') =>
    t.app.inject({
      method: 'POST',
      url: '/api/support',
      remoteAddress: `10.1.0.${++address}`,
      payload: { name: 'Anna', email, topic: 'order', message: 'Where is my order? It has been two days already.', orderReference },
    });

  it('keeps verified identity data until its retention date, then deletes it; the account stays verified and the deletion is audited', async () => {
    const u = await user('kept@muntly.test');
    await enable('kept@muntly.test', 'mobile');
    await submit(u, 'mobile', { mobile: '+31 6 44444444' });
    expect((await confirm(u, 'mobile', ONE_TIME_CODE.exec(await lastBody('+31644444444'))![0])).statusCode).toBe(200);
    const verified = await view(u, 'mobile');
    expect(verified).toMatchObject({ phase: 'verified', data: { mobile: '+31644444444' }, dataDeletedAt: null });
    // Five years after the verification, to the day.
    expect(new Date(verified.retainUntil!).getTime()).toBeGreaterThan(yearsFromNow(5, -1).getTime());

    expect((await applyRetention(t.app.db, yearsFromNow(5, -1))).identityDataDeleted).toBe(0);
    expect((await view(u, 'mobile')).data).toEqual({ mobile: '+31644444444' });

    const afterRetention = yearsFromNow(5, 1);
    expect(await outboxCount('+31644444444')).toBe(1);
    expect((await applyRetention(t.app.db, afterRetention)).identityDataDeleted).toBeGreaterThanOrEqual(1);
    // The SMS that carried the number goes with it.
    expect(await outboxCount('+31644444444')).toBe(0);
    expect(await view(u, 'mobile')).toMatchObject({
      phase: 'verified',
      verifiedAt: verified.verifiedAt,
      data: null,
      retainUntil: null,
      dataDeletedAt: afterRetention.toISOString(),
    });
    const audited = await auditCount('identity.data_deleted');
    expect(audited).toBeGreaterThanOrEqual(1);

    // A second run, or another replica's, finds nothing left to delete.
    expect((await applyRetention(t.app.db, afterRetention)).identityDataDeleted).toBe(0);
    expect(await auditCount('identity.data_deleted')).toBe(audited);
  });

  it('sends a verification still waiting for its code back to step 1: the old code dies, new details can be sent', async () => {
    const u = await user('waiting@muntly.test');
    await enable('waiting@muntly.test', 'mobile');
    await submit(u, 'mobile', { mobile: '+31 6 55555555' });
    const code = ONE_TIME_CODE.exec(await lastBody('+31655555555'))![0];

    await applyRetention(t.app.db, yearsFromNow(5, 1));
    expect(await view(u, 'mobile')).toMatchObject({ phase: 'step_1', data: null });
    const refused = await confirm(u, 'mobile', code);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('no_code_pending');

    await ageSentCodes(t, 61_000); // a new code only after a minute
    expect((await submit(u, 'mobile', { mobile: '+31 6 55555555' })).statusCode).toBe(200);
    expect(await view(u, 'mobile')).toMatchObject({ phase: 'step_2', data: { mobile: '+31655555555' }, dataDeletedAt: null });
  });

  it('deletes support messages and their confirmations after two years; those about an order are kept with its records (five years)', async () => {
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50', email: 'customer@muntly.test', address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu' },
    });
    expect(placed.statusCode).toBe(201);
    expect((await support('plain@muntly.test')).statusCode).toBe(201);
    expect((await support('customer@muntly.test', placed.json().reference)).statusCode).toBe(201);
    expect((await support('unknown-order@muntly.test', 'AAAA-BBBB-CCCC-DDDD')).statusCode).toBe(201);
    const supportMailbox = await outboxCount('support@muntly.example');

    expect((await applyRetention(t.app.db, yearsFromNow(2, -1))).messagesDeleted).toBe(0);
    // Two years on: the plain request and the one naming no real order go, each with its confirmation.
    expect((await applyRetention(t.app.db, yearsFromNow(2, 1))).messagesDeleted).toBe(4);
    expect(await outboxCount('plain@muntly.test')).toBe(0);
    expect(await outboxCount('unknown-order@muntly.test')).toBe(0);
    expect(await outboxCount('support@muntly.example')).toBe(supportMailbox - 2);
    // The customer's order confirmation and their support request about it stay.
    expect(await outboxCount('customer@muntly.test')).toBe(2);

    // (Verification messages of the tests before may go in the same run: they live five years too.)
    expect((await applyRetention(t.app.db, yearsFromNow(5, 1))).messagesDeleted).toBeGreaterThanOrEqual(2);
    // The order's own confirmation email belongs to the AML records and has no end date here.
    expect(await outboxCount('customer@muntly.test')).toBe(1);
    expect(await outboxCount('support@muntly.example')).toBe(supportMailbox - 3);
  });

  it('runs from the ops command, for operators only, and two runs at once delete each item once', async () => {
    const u = await user('raced@muntly.test');
    await enable('raced@muntly.test', 'bank');
    await submit(u, 'bank', { iban: 'NL91ABNA0417164300', beneficiary: 'Raced' });
    await support('raced@muntly.test');
    await t.app.db.execute(sql`update verifications set retain_until = now() - interval '1 day' where kind = 'bank' and data->>'beneficiary' = 'Raced'`);
    await t.app.db.execute(sql`update outbox set retain_until = now() - interval '1 day' where recipient = 'raced@muntly.test' and retain_until is not null`);
    const before = await auditCount('identity.data_deleted');

    expect((await t.app.inject({ method: 'POST', url: '/api/ops/retention', headers: u })).statusCode).toBe(403);
    const runs = await Promise.all([1, 2].map(() => t.app.inject({ method: 'POST', url: '/api/ops/retention', headers: admin })));
    expect(runs.map((r) => r.statusCode)).toEqual([200, 200]);
    const totals = runs.map((r) => r.json() as { identityDataDeleted: number; messagesDeleted: number });
    expect(totals.reduce((sum, r) => sum + r.identityDataDeleted, 0)).toBe(1);
    expect(totals.reduce((sum, r) => sum + r.messagesDeleted, 0)).toBe(1);
    expect(await auditCount('identity.data_deleted')).toBe(before + 1);
    expect(await view(u, 'bank')).toMatchObject({ phase: 'step_1', data: null });
  });

  it('npm run ops -- retention prints what it deleted', async () => {
    await support('printed@muntly.test');
    await t.app.db.execute(sql`update outbox set retain_until = now() - interval '1 day' where recipient = 'printed@muntly.test'`);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const printed = await opsCliOutput(address, admin, (run) => run(['retention']));
    expect(printed).toEqual(['Deleted the identity data of 0 verification(s) and 1 support message(s).']);
  });

  it('runs by itself in every replica, every RETENTION_INTERVAL_MS', async () => {
    const replica = await testApp(kind, { RETENTION_INTERVAL_MS: '50' });
    try {
      await replica.app.db.execute(
        sql`insert into outbox (channel, recipient, subject, body, retain_until) values ('email', 'old@muntly.test', 'Old', 'An old support message', now() - interval '1 day')`,
      );
      const left = async () => Number(((await replica.app.db.execute(sql`select count(*) as n from outbox where recipient = 'old@muntly.test'`)) as unknown as { rows: { n: string }[] }).rows[0]!.n);
      for (let i = 0; i < 100 && (await left()) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await left()).toBe(0);
    } finally {
      await replica.close();
    }
  });
});
