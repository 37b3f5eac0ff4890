/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { processOrders } from '../src/modules/orders/settlement';
import { approvalNeeded } from '../src/modules/payouts/approval';
import { run } from '../src/ops/cli';
import {
  balanceOf,
  bearer,
  confirmSendFromMail,
  databaseKinds,
  fixedRates,
  payOut,
  signToken,
  testApp,
  testUser,
  type TestApp,
  type TestUser,
} from './helpers';
import type { AddressInfo } from 'node:net';

/**
 * Four eyes on payouts (docs/operating.md "Payouts waiting for approval"): with the defaults (above
 * 10,000 EUR, or a bank or ID verification younger than 7 days) a payout waits in
 * awaiting_approval until two operators other than the one who triggered it approve it; a
 * rejection gives the money back through the ledger. Three operators act here, each with a token
 * of their own; `close()` checks every ledger invariant at the end.
 */
jest.setTimeout(120_000);

const rates = fixedRates(); // BTC at 80,000 EUR
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

type Payout = {
  id: string;
  status: string;
  idempotencyKey: string;
  eurValue: string | null;
  triggeredBy: string | null;
  failureReason: string | null;
  approval: { reason: string; reviewedBy: string | null; approvedBy: string | null; rejectedBy: string | null } | null;
};

describe.each(databaseKinds())('four eyes on payouts (%s)', (kind) => {
  let t: TestApp;
  const operators: Record<'alice' | 'bob' | 'carol', Record<string, string>> = { alice: {}, bob: {}, carol: {} };
  /** How the API names an operator: the token's subject (one issuer is trusted, so the subject names the operator). */
  const operatorId = (name: string) => `ops|${name}`;

  beforeAll(async () => {
    // The test helpers switch the newly-verified rule off for the other suites; here it is on, as by default.
    t = await testApp(kind, { PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS: '7' }, { rates });
    for (const name of ['alice', 'bob', 'carol'] as const)
      operators[name] = bearer(await signToken(t.keys, { sub: `ops|${name}`, scope: 'use:muntly admin:muntly' }));
  }, 120_000);
  afterAll(() => t?.close());

  /** A customer with BTC in the wallet, verified for any weekly volume; `aged`: verified a month ago. */
  async function customer(email: string, btc: string, { aged }: { aged: boolean }): Promise<TestUser> {
    // Sends go to EXTERNAL, an address-book entry past its hold (allow-list mode is on for new accounts).
    const user = await testUser(t, email, { verified: ['bank', 'mobile', 'id'], deposit: btc, book: [EXTERNAL] });
    if (aged) await ageVerifications(email);
    return user;
  }
  const ageVerifications = (email: string) =>
    t.app.db.execute(
      sql`update verifications set verified_at = now() - interval '30 days' where account_id = (select id from accounts where lower(email) = lower(${email}))`,
    );

  async function sendOut(user: TestUser, amount: string) {
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      headers: user.headers,
      payload: { currency: 'BTC', address: EXTERNAL, amount },
    });
    expect(started.statusCode).toBe(201);
    const confirmed = await confirmSendFromMail(t, user, started.json().id);
    expect(confirmed.statusCode).toBe(200);
    return { id: started.json().id as string, confirmed: confirmed.json() };
  }
  const sendState = async (user: TestUser, id: string) =>
    (await t.app.inject({ url: `/api/wallet/sends/${id}`, headers: user.headers })).json();
  const btc = (user: TestUser) => balanceOf(t, user.headers, 'BTC');
  const history = async (user: TestUser) =>
    (await t.app.inject({ url: '/api/wallet/transactions', headers: user.headers })).json().transactions as {
      type: string;
      status: string;
      amount: string;
    }[];
  const payouts = async (query: string) =>
    (await t.app.inject({ url: `/api/ops/payouts?${query}`, headers: t.admin })).json().payouts as Payout[];
  const payoutByKey = async (key: string) => (await payouts('limit=500')).find((p) => p.idempotencyKey === key)!;
  const approve = (id: string, who: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `/api/ops/payouts/${id}/approve`, headers: who });
  const reject = (id: string, who: Record<string, string>, reason: string) =>
    t.app.inject({ method: 'POST', url: `/api/ops/payouts/${id}/reject`, headers: who, payload: { reason } });
  const errorCode = (response: { json(): { error?: { code: string } } }) => response.json().error?.code;
  /** A send of `amount` BTC by a new aged customer, waiting for approval because it is large. */
  async function waitingSend(email: string, amount = '0.2') {
    const user = await customer(email, '0.5', { aged: true });
    const { id } = await sendOut(user, amount);
    const payout = await payoutByKey(`send:${id}`);
    expect(payout.status).toBe('awaiting_approval');
    return { user, sendId: id, payoutId: payout.id };
  }

  it('holds a send worth more than 10,000 EUR for approval: the balance shows it sent, the customer sees why it waits, the worker leaves it', async () => {
    const user = await customer(`large-${kind}@muntly.test`, '0.5', { aged: true });
    const { id, confirmed } = await sendOut(user, '0.2'); // 16,000 EUR
    expect(confirmed).toMatchObject({
      status: 'awaiting_approval',
      message: 'Your transaction waits for approval by two members of our team.',
    });
    expect(await sendState(user, id)).toMatchObject({ status: 'awaiting_approval', txid: null });
    expect(await btc(user)).toBe('0.29998000'); // amount and network fee held from the moment of confirming
    const rows = await history(user);
    expect(rows.filter((row) => row.status === 'awaiting_approval').map((row) => row.type)).toEqual(
      expect.arrayContaining(['send', 'fee']),
    );
    expect(rows.find((row) => row.type === 'deposit')).toMatchObject({ status: 'completed' });

    expect(await payOut(t)).toBe(0); // the worker never takes it
    const waiting = (await payouts('status=awaiting_approval')).find((p) => p.idempotencyKey === `send:${id}`);
    expect(waiting).toMatchObject({
      status: 'awaiting_approval',
      eurValue: '16000.00',
      triggeredBy: null,
      approval: { reason: 'above_limit', reviewedBy: null, approvedBy: null, rejectedBy: null },
    });
    // A pending list (what a bank export or the executor reads) does not show it.
    expect((await payouts('status=pending')).some((p) => p.id === waiting!.id)).toBe(false);
  });

  it('lets a send of exactly 10,000 EUR, from an account verified long ago, go straight to the worker', async () => {
    const user = await customer(`limit-${kind}@muntly.test`, '0.2', { aged: true });
    const { id, confirmed } = await sendOut(user, '0.125'); // 10,000.00 EUR: not above the limit
    expect(confirmed.status).toBe('processing');
    expect(await payoutByKey(`send:${id}`)).toMatchObject({ status: 'pending', eurValue: '10000.00', approval: null });
    expect(await payOut(t)).toBeGreaterThanOrEqual(1);
    expect(await sendState(user, id)).toMatchObject({
      status: 'completed',
      txid: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('holds any payout of an account verified less than 7 days ago, however small; a week later it goes on', async () => {
    const user = await customer(`fresh-${kind}@muntly.test`, '0.01', { aged: false });
    const first = await sendOut(user, '0.001'); // 80 EUR
    expect(first.confirmed.status).toBe('awaiting_approval');
    expect(await payoutByKey(`send:${first.id}`)).toMatchObject({
      status: 'awaiting_approval',
      eurValue: '80.00',
      approval: { reason: 'new_account' },
    });

    await ageVerifications(user.email);
    const later = await sendOut(user, '0.001');
    expect(later.confirmed.status).toBe('processing');
    expect(await payOut(t)).toBe(1);
    expect(await sendState(user, first.id)).toMatchObject({ status: 'awaiting_approval' });
  });

  it('needs two different operators: the first approval is the review, the same operator cannot give the second, another one releases it to the worker', async () => {
    const { user, sendId, payoutId } = await waitingSend(`approved-${kind}@muntly.test`);
    const reviewed = await approve(payoutId, operators.alice);
    expect(reviewed.statusCode).toBe(200);
    expect(reviewed.json()).toMatchObject({
      released: false,
      payout: { status: 'awaiting_approval', approval: { reviewedBy: operatorId('alice'), approvedBy: null } },
    });
    expect(await sendState(user, sendId)).toMatchObject({ status: 'awaiting_approval' });
    expect(await payOut(t)).toBe(0);

    const again = await approve(payoutId, operators.alice);
    expect(again.statusCode).toBe(403);
    expect(again.json().error).toMatchObject({
      code: 'approval_same_operator',
      message: 'You have already approved this payout: the second approval must come from another operator.',
    });

    const released = await approve(payoutId, operators.bob);
    expect(released.json()).toMatchObject({
      released: true,
      payout: { status: 'pending', approval: { reviewedBy: operatorId('alice'), approvedBy: operatorId('bob') } },
    });
    expect(await sendState(user, sendId)).toMatchObject({ status: 'processing' });
    expect(errorCode(await approve(payoutId, operators.carol))).toBe('payout_not_awaiting_approval');

    expect(await payOut(t)).toBe(1);
    expect(await sendState(user, sendId)).toMatchObject({
      status: 'completed',
      txid: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(await btc(user)).toBe('0.29998000');
  });

  it('rejects through the ledger: the send fails, amount and network fee are back in the balance, the reason is kept', async () => {
    const { user, sendId, payoutId } = await waitingSend(`rejected-${kind}@muntly.test`);
    await approve(payoutId, operators.alice); // a reviewer may still be overruled by a rejection
    expect((await reject(payoutId, operators.bob, '  ')).statusCode).toBe(400);
    const rejected = await reject(payoutId, operators.bob, 'destination on a sanctions list');
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().payout).toMatchObject({
      status: 'failed',
      failureReason: 'destination on a sanctions list',
      approval: { rejectedBy: operatorId('bob'), approvedBy: null },
    });
    expect(await sendState(user, sendId)).toMatchObject({ status: 'failed', txid: null });
    expect(await btc(user)).toBe('0.50000000');
    expect((await history(user))[0]).toMatchObject({
      type: 'payout_return',
      status: 'completed',
      amount: '0.20002000',
    });
    expect(await payOut(t)).toBe(0);
    expect(errorCode(await reject(payoutId, operators.carol, 'twice'))).toBe('payout_not_awaiting_approval');
    expect(errorCode(await approve(payoutId, operators.carol))).toBe('payout_not_awaiting_approval');
    expect((await t.app.inject({ url: '/api/ops/ledger/verify', headers: t.admin })).json().ok).toBe(true);
  });

  it('an order placed without an account is judged by its amount; the operator whose rejection triggers a refund can neither approve nor reject it', async () => {
    const place = async (email: string, amount: string, headers: Record<string, string> = {}) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/orders',
          headers,
          payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount, email, address: BTC_ADDRESS },
        })
      ).json();
    const pay = (order: { shortReference: string }, amount: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/ops/payment-received',
        headers: t.admin,
        payload: { reason: order.shortReference, amount },
      });
    const lookup = async (email: string, reference: string) =>
      (await t.app.inject({ method: 'POST', url: '/api/orders/lookup', payload: { email, reference } })).json();
    const work = () => processOrders(t.database.db, { ...t.app.workers.settlement, rates });

    // No account, so no verification age: a small order is paid at once.
    const anonymous = await place(`guest-${kind}@muntly.test`, '50');
    await pay(anonymous, '50.00');
    await work();
    expect(await payOut(t)).toBe(1);
    expect(await lookup(`guest-${kind}@muntly.test`, anonymous.reference)).toMatchObject({
      status: 'completed_success',
      payoutAwaitingApproval: false,
    });

    // A customer verified long ago, whose first order went through, buys for 15,000 EUR.
    const email = `buyer-${kind}@muntly.test`;
    const buyer = await customer(email, '0.01', { aged: true });
    const first = await place(email, '50', buyer.headers);
    await pay(first, '50.00');
    await work();
    await payOut(t);
    const large = await place(email, '15000', buyer.headers);
    expect((await pay(large, '15000.00')).json()).toMatchObject({ status: 'processing' });
    await work();
    const delivery = await payoutByKey(`order-delivery:${await orderId(large.reference)}`);
    expect(delivery).toMatchObject({
      status: 'awaiting_approval',
      triggeredBy: null,
      approval: { reason: 'above_limit' },
    });
    expect(await lookup(email, large.reference)).toMatchObject({ status: 'processing', payoutAwaitingApproval: true });
    expect(await payOut(t)).toBe(0);

    // Alice rejects the delivery: the order fails and the payment goes back by a refund she triggered.
    expect((await reject(delivery.id, operators.alice, 'payment looks like fraud')).statusCode).toBe(200);
    expect(await lookup(email, large.reference)).toMatchObject({
      status: 'completed_failure',
      failure: { reason: 'payout_failed', refund: 'bank' },
      payoutAwaitingApproval: true,
    });
    const refund = await payoutByKey(`order-refund:${await orderId(large.reference)}`);
    expect(refund).toMatchObject({
      status: 'awaiting_approval',
      eurValue: '15000.00',
      triggeredBy: operatorId('alice'),
      approval: { reason: 'above_limit' },
    });

    const own = await approve(refund.id, operators.alice);
    expect(own.statusCode).toBe(403);
    expect(errorCode(own)).toBe('approval_own_payout');
    expect(errorCode(await reject(refund.id, operators.alice, 'changed my mind'))).toBe('approval_own_payout');
    expect((await approve(refund.id, operators.bob)).json().released).toBe(false);
    expect((await approve(refund.id, operators.carol)).json()).toMatchObject({
      released: true,
      payout: {
        status: 'pending',
        triggeredBy: operatorId('alice'),
        approval: { reviewedBy: operatorId('bob'), approvedBy: operatorId('carol') },
      },
    });
    expect(await lookup(email, large.reference)).toMatchObject({ payoutAwaitingApproval: false });
    expect(await payOut(t)).toBe(1);
    expect((await payoutByKey(`order-refund:${await orderId(large.reference)}`)).status).toBe('completed');
  });
  const orderId = async (reference: string) =>
    (
      (await t.app.db.execute(sql`select id from orders where reference = ${reference}`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows[0]!.id;

  describe('operators acting at the same time', () => {
    it('two first approvals at once: one is the review, the other releases the payout', async () => {
      const { payoutId } = await waitingSend(`race-both-${kind}@muntly.test`);
      const answers = await Promise.all([approve(payoutId, operators.alice), approve(payoutId, operators.bob)]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      expect(answers.map((a) => a.json().released).sort()).toEqual([false, true]);
      const { approval, status } = await payoutByKey(`send:${await sendOfPayout(payoutId)}`);
      expect(status).toBe('pending');
      expect([approval!.reviewedBy, approval!.approvedBy].sort()).toEqual([operatorId('alice'), operatorId('bob')]);
      expect(await payOut(t)).toBe(1);
    });

    it('the same operator twice at once: one review, one refusal', async () => {
      const { payoutId } = await waitingSend(`race-same-${kind}@muntly.test`);
      const answers = await Promise.all([approve(payoutId, operators.alice), approve(payoutId, operators.alice)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 403]);
      expect(answers.map(errorCode)).toContain('approval_same_operator');
      expect((await payoutByKey(`send:${await sendOfPayout(payoutId)}`)).status).toBe('awaiting_approval');
    });

    it('two second approvals at once: the payout is released once', async () => {
      const { payoutId } = await waitingSend(`race-second-${kind}@muntly.test`);
      await approve(payoutId, operators.alice);
      const answers = await Promise.all([approve(payoutId, operators.bob), approve(payoutId, operators.carol)]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
      expect(answers.map(errorCode)).toContain('payout_not_awaiting_approval');
      expect(await payOut(t)).toBe(1);
    });

    it('an approval racing a rejection: exactly one of them happens, and the money is either paid or back', async () => {
      const { user, sendId, payoutId } = await waitingSend(`race-reject-${kind}@muntly.test`);
      await approve(payoutId, operators.alice);
      const [approved, rejected] = await Promise.all([
        approve(payoutId, operators.bob),
        reject(payoutId, operators.carol, 'too risky'),
      ]);
      expect([approved.statusCode, rejected.statusCode].sort()).toEqual([200, 409]);
      await payOut(t);
      if (approved.statusCode === 200) {
        expect(await sendState(user, sendId)).toMatchObject({ status: 'completed' });
        expect(await btc(user)).toBe('0.29998000');
      } else {
        expect(await sendState(user, sendId)).toMatchObject({ status: 'failed' });
        expect(await btc(user)).toBe('0.50000000');
      }
      expect((await t.app.inject({ url: '/api/ops/ledger/verify', headers: t.admin })).json().ok).toBe(true);
    });
  });
  const sendOfPayout = async (payoutId: string) =>
    (
      (await t.app.db.execute(sql`select send_id from payouts where id = ${payoutId}`)) as unknown as {
        rows: { send_id: string }[];
      }
    ).rows[0]!.send_id;

  it('from the command line: two operator emails are two operators', async () => {
    const { sendId, payoutId } = await waitingSend(`cli-${kind}@muntly.test`);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { printed, errors } = await localOps(url, async (ops) => {
      await ops(['payouts', '--status', 'awaiting_approval']);
      await ops(['--as', 'dana@ops.test', 'payout-approve', payoutId]);
      await ops(['payouts', '--status', 'awaiting_approval']);
      await ops(['payout-approve', payoutId, '--as', 'dana@ops.test']);
      await ops(['payout-approve', payoutId, '--as', 'erik@ops.test']);
    });
    const line = (text: string) => text.startsWith(payoutId);
    expect(printed.filter(line)[0]).toMatch(
      /awaiting_approval +send +0\.20000000 BTC \(\+0\.00002000\) → .* above_limit \(worth EUR 16000\.00\), waiting for two operators$/,
    );
    expect(printed).toContain(
      `Payout ${payoutId} (0.20000000 BTC) reviewed: it waits for the approval of another operator.`,
    );
    expect(printed.filter(line)[1]).toMatch(/reviewed by .*ops-cli:dana@ops\.test, waiting for a second operator$/);
    expect(errors).toEqual([
      '403 approval_same_operator: You have already approved this payout: the second approval must come from another operator.',
    ]);
    expect(printed.at(-1)).toBe(
      `Payout ${payoutId} (0.20000000 BTC) approved by a second operator: it is now pending.`,
    );
    expect((await payoutByKey(`send:${sendId}`)).approval).toMatchObject({
      reviewedBy: 'ops-cli:dana@ops.test',
      approvedBy: 'ops-cli:erik@ops.test',
    });
  });

  it('local mode: an admin who mints a second operator (dev-token + grant-admin) can still approve twice, but the trail and the list say who minted whom (issue 34)', async () => {
    const { payoutId } = await waitingSend(`minted-${kind}@muntly.test`);
    const mint = async (email: string) =>
      (
        await t.app.inject({ method: 'POST', url: '/api/ops/dev-token', headers: operators.alice, payload: { email } })
      ).json();
    await mint('sock@ops.test');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/grant-admin',
          headers: operators.alice,
          payload: { email: 'sock@ops.test' },
        })
      ).statusCode,
    ).toBe(200);
    const sock = { authorization: `Bearer ${(await mint('sock@ops.test')).accessToken}` };
    await approve(payoutId, operators.alice);
    const list = async (headers: Record<string, string>) =>
      (
        (await t.app.inject({ url: '/api/ops/payouts?status=awaiting_approval&limit=500', headers })).json()
          .payouts as {
          id: string;
          approval: { issued: { operator: string; by: string; action: string }[] };
        }[]
      ).find((p) => p.id === payoutId)!;
    const seen = await list(sock);
    const sockSubject = seen.approval.issued.find((row) => row.action === 'admin.grant')!.operator;
    expect(seen.approval.issued.map(({ operator, by, action }) => ({ operator, by, action }))).toEqual([
      { operator: sockSubject, by: 'ops|alice', action: 'dev.token' },
      { operator: sockSubject, by: 'ops|alice', action: 'admin.grant' },
      { operator: sockSubject, by: 'ops|alice', action: 'dev.token' },
    ]);
    // Local mode keeps this possible: the second approval by the minted identity releases it …
    expect((await approve(payoutId, sock)).statusCode).toBe(200);
    // … and the trail names the minting next to the approvals.
    const trail = (await t.app.inject({ url: `/api/ops/audit?target=${sockSubject}`, headers: t.admin })).json()
      .entries as { actor: string; action: string }[];
    expect(trail.map((e) => `${e.actor} ${e.action}`)).toEqual(
      expect.arrayContaining(['ops|alice dev.token', 'ops|alice admin.grant']),
    );
  });

  it('from the command line: OPS_AS and --as name one operator however the email is written (issue 34)', async () => {
    const { sendId, payoutId } = await waitingSend(`cli-case-${kind}@muntly.test`);
    if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
    const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const { errors } = await localOps(url, async (ops) => {
      process.env.OPS_AS = ' Fenna@OPS.test ';
      await ops(['payout-approve', payoutId]);
      delete process.env.OPS_AS;
      await ops(['payout-approve', payoutId, '--as', 'fenna@ops.test']);
      await ops(['payout-approve', payoutId, '--as', 'FENNA@ＯＰＳ.test']);
      process.env.OPS_AS = 'not an email';
      await ops(['payouts']);
      delete process.env.OPS_AS;
    });
    expect(errors).toEqual([
      '403 approval_same_operator: You have already approved this payout: the second approval must come from another operator.',
      '403 approval_same_operator: You have already approved this payout: the second approval must come from another operator.',
      'OPS_AS needs an email address.',
    ]);
    expect((await payoutByKey(`send:${sendId}`)).approval).toMatchObject({
      reviewedBy: 'ops-cli:fenna@ops.test',
      approvedBy: null,
    });
    // A token signed by hand with another spelling in its subject is that operator too.
    const shouted = bearer(
      await signToken(t.keys, { sub: 'ops-cli:FENNA@Ops.Test', scope: 'use:muntly admin:muntly' }),
    );
    const again = await t.app.inject({ method: 'POST', url: `/api/ops/payouts/${payoutId}/approve`, headers: shouted });
    expect(again.json().error.code).toBe('approval_same_operator');
  });

  /**
   * `npm run ops` as run locally: no OPS_TOKEN, so it signs its own tokens with the local
   * provider's key from DATA_DIR (here the test's key), as `ops-cli:<email>` with --as.
   */
  async function localOps(
    url: string,
    commands: (ops: typeof run) => Promise<void>,
  ): Promise<{ printed: string[]; errors: string[] }> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-ops-'));
    fs.writeFileSync(
      path.join(dataDir, 'idp-keys.json'),
      JSON.stringify({ privateJwk: t.keys.privateJwk, cookieKeys: t.keys.cookieKeys }),
    );
    const saved = {
      OPS_URL: process.env.OPS_URL,
      OPS_TOKEN: process.env.OPS_TOKEN,
      OPS_AS: process.env.OPS_AS,
      DATA_DIR: process.env.DATA_DIR,
      IDP_PORT: process.env.IDP_PORT,
    };
    Object.assign(process.env, { OPS_URL: url, DATA_DIR: dataDir, IDP_PORT: new URL(t.config.authIssuer).port });
    delete process.env.OPS_TOKEN;
    delete process.env.OPS_AS;
    const printed: string[] = [];
    const errors: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
    try {
      await commands(async (args) => run(args).catch((error: Error) => void errors.push(error.message)));
    } finally {
      log.mockRestore();
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    return { printed, errors };
  }

  it('holds every payout of a frozen account, however small: an order’s delivery waits while the account is frozen, and goes straight once it is unfrozen', async () => {
    const email = `frozen-${kind}@muntly.test`;
    const buyer = await customer(email, '0.01', { aged: true });
    const place = async () =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/orders',
          headers: buyer.headers,
          payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '50', email, address: BTC_ADDRESS },
        })
      ).json();
    const payAndWork = async (order: { shortReference: string }) => {
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/ops/payment-received',
            headers: t.admin,
            payload: { reason: order.shortReference, amount: '50.00' },
          })
        ).statusCode,
      ).toBe(200);
      await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    };
    // The user freezes their sends (a security email's link, or the security page).
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/wallet/security/freeze', headers: buyer.headers })).json()
        .frozen,
    ).toBe(true);
    const whileFrozen = await place();
    await payAndWork(whileFrozen);
    expect(await payoutByKey(`order-delivery:${await orderId(whileFrozen.reference)}`)).toMatchObject({
      status: 'awaiting_approval',
      approval: { reason: 'frozen_account' },
    });
    await payOut(t); // the worker leaves it
    expect((await payoutByKey(`order-delivery:${await orderId(whileFrozen.reference)}`)).status).toBe(
      'awaiting_approval',
    );

    const accountKey = (
      await t.app.inject({ url: `/api/ops/users?email=${encodeURIComponent(email)}`, headers: t.admin })
    ).json().users[0].accountKey;
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/ops/accounts/${accountKey}/unfreeze`,
          headers: operators.alice,
          payload: { reason: 'owner verified' },
        })
      ).json().frozen,
    ).toBe(false);
    const afterwards = await place();
    await payAndWork(afterwards);
    expect(await payoutByKey(`order-delivery:${await orderId(afterwards.reference)}`)).toMatchObject({
      status: 'pending',
      approval: null,
    });
    // The one that waited still needs its two operators.
    expect((await payoutByKey(`order-delivery:${await orderId(whileFrozen.reference)}`)).status).toBe(
      'awaiting_approval',
    );
  });

  it('waits for a frozen account whatever the amount, and when crypto has no rate or the feed does not answer (the policy’s hooks)', async () => {
    const policy = t.app.workers.payoutApproval;
    const frozen = { ...policy, accountFrozen: async () => true };
    const accountId = '00000000-0000-4000-8000-000000000000';
    expect(
      await t.app.db.transaction((tx) =>
        approvalNeeded(tx, { policy: frozen, accountId }, { currency: 'BTC', amount: 1000n }),
      ),
    ).toEqual({ eurValue: 80n, reason: 'frozen_account' });
    expect(
      await t.app.db.transaction((tx) =>
        approvalNeeded(tx, { policy, accountId: null }, { currency: 'BTC', amount: 1000n }),
      ),
    ).toEqual({ eurValue: 80n, reason: null });
    expect(
      await t.app.db.transaction((tx) =>
        approvalNeeded(tx, { policy, accountId: null }, { currency: 'SOL', amount: 1n }),
      ),
    ).toEqual({ eurValue: null, reason: 'above_limit' });
    const feedDown = { ...policy, rates: { current: () => Promise.reject(new Error('rates feed unreachable')) } };
    expect(
      await t.app.db.transaction((tx) =>
        approvalNeeded(tx, { policy: feedDown, accountId: null }, { currency: 'BTC', amount: 1000n }),
      ),
    ).toEqual({ eurValue: null, reason: 'above_limit' });
    expect(
      await t.app.db.transaction((tx) =>
        approvalNeeded(tx, { policy: feedDown, accountId: null }, { currency: 'EUR', amount: 1000n }),
      ),
    ).toEqual({ eurValue: 1000n, reason: null });
  });
});
