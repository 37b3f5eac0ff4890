/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { runPayouts } from '../src/modules/payouts/service';
import {
  bookAddresses,
  confirmSendFromMail,
  opsCliOutput,
  payOut,
  testApp,
  signToken,
  bearer,
  databaseKinds,
  type TestApp,
} from './helpers';
import type { AddressInfo } from 'node:net';

/**
 * The payout pipeline (docs/architecture.md): booked in the transaction that confirms a send,
 * handed to the adapter by a worker outside any transaction, its result booked in a second one.
 * Here with the production adapters (an external signer and bank that report back through the
 * ops API) and with the simulated chain, including a worker that dies between its two steps.
 */
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const rates = { current: async () => ({ at: 'now', rates: { BTC: '80000', ETH: '3000' } }) };

describe.each(databaseKinds())('payouts (%s)', (kind) => {
  describe.each([
    ['an external signer', { CHAIN_PAYOUTS: 'signer', BANK_PAYOUTS: 'external' }],
    ['the simulated chain', {}],
  ] as const)('through %s', (executor, settings) => {
    let t: TestApp;
    let admin: Record<string, string>;
    beforeAll(async () => {
      t = await testApp(kind, { ...settings }, { rates });
      admin = bearer(await signToken(t.keys, { sub: 'operator', scope: 'use:muntly admin:muntly' }));
    }, 120_000); // the first app of a worker loads PGlite, slow on a busy machine
    afterAll(() => t?.close());
    const signer = executor === 'an external signer';

    async function user(email: string, btc: string) {
      const headers = bearer(await signToken(t.keys, { sub: `auth0|${email}`, email }));
      await t.app.inject({ url: '/api/me', headers });
      await t.app.inject({
        method: 'POST',
        url: '/api/ops/verification/verify',
        headers: admin,
        payload: { email, kind: 'bank' },
      });
      const address = (
        await t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers, payload: { currency: 'BTC' } })
      ).json().address;
      await t.app.inject({
        method: 'POST',
        url: '/api/ops/chain-deposit',
        headers: admin,
        payload: { currency: 'BTC', address, amount: btc },
      });
      await bookAddresses(t, { headers }, [EXTERNAL]);
      return { headers, email };
    }
    /** Starts and confirms a send of `amount` BTC to the outside address; returns the send. */
    async function sendOut(u: { headers: Record<string, string>; email: string }, amount: string) {
      const started = (
        await t.app.inject({
          method: 'POST',
          url: '/api/wallet/sends',
          headers: u.headers,
          payload: { currency: 'BTC', address: EXTERNAL, amount },
        })
      ).json();
      const confirmed = await confirmSendFromMail(t, u, started.id);
      expect(confirmed.json()).toMatchObject({ status: 'processing' });
      return started as { id: string };
    }
    const sendState = async (u: { headers: Record<string, string> }, id: string) =>
      (await t.app.inject({ url: `/api/wallet/sends/${id}`, headers: u.headers })).json();
    const balance = async (u: { headers: Record<string, string> }) =>
      (await t.app.inject({ url: '/api/wallet/balances', headers: u.headers }))
        .json()
        .balances.find((b: { currency: string }) => b.currency === 'BTC').balance;
    const listed = async (query: string) =>
      (await t.app.inject({ url: `/api/ops/payouts?${query}`, headers: admin })).json().payouts as Record<
        string,
        unknown
      >[];
    const report = (id: string, payload: object, headers = admin) =>
      t.app.inject({ method: 'POST', url: `/api/ops/payouts/${id}/result`, headers, payload });
    const ledgerOk = async () => (await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json().ok;
    const payoutOf = async (sendId: string) =>
      (
        (await t.app.db.execute(
          sql`select id, status, attempts, idempotency_key from payouts where send_id = ${sendId}`,
        )) as unknown as {
          rows: { id: string; status: string; attempts: number; idempotency_key: string }[];
        }
      ).rows[0]!;
    const payoutTransfers = async (payoutId: string) =>
      (
        (await t.app.db.execute(
          sql`select count(*)::int as n from ledger_transfers where id = ${`payout:${payoutId}`}`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n;

    if (signer) {
      it('hands a send to the signer, lists it in the documented shape, and books the txid it reports', async () => {
        const u = await user(`signer-${kind}@muntly.test`, '0.01');
        const send = await sendOut(u, '0.004');
        expect(await balance(u)).toBe('0.00598000'); // amount and network fee held from the moment of confirming
        expect(await listed('status=submitted')).toEqual([]);
        expect(await payOut(t)).toBe(1); // handed to the signer: nothing paid yet
        const [waiting] = await listed('status=submitted&rail=chain');
        expect(waiting).toEqual({
          id: expect.any(String),
          rail: 'chain',
          purpose: 'send',
          status: 'submitted',
          currency: 'BTC',
          destination: EXTERNAL,
          reference: null,
          amount: '0.00400000',
          networkFee: '0.00002000',
          idempotencyKey: `send:${send.id}`,
          attempts: 1,
          txid: null,
          txids: [],
          chainFee: null,
          instructionMac: null, // no node for BTC here: the simulated chain's payouts carry none
          failureReason: null,
          createdAt: expect.any(String),
          submittedAt: expect.any(String),
          completedAt: null,
          bankExportId: null, // crypto: never in a bank file
          eurValue: '320.00',
          triggeredBy: null,
          approval: null,
        });
        expect(await sendState(u, send.id)).toMatchObject({ status: 'processing', txid: null });
        expect(await payOut(t)).toBe(0); // the worker does not hand it over twice

        const txid = 'a'.repeat(64);
        const done = await report(waiting!.id as string, { status: 'completed', txid });
        expect(done.json()).toMatchObject({ booked: true, payout: { status: 'completed', txid } });
        expect(await sendState(u, send.id)).toMatchObject({ status: 'completed', txid });
        // The signer reports twice (its answer was lost): accepted once; a different txid is refused.
        expect((await report(waiting!.id as string, { status: 'completed', txid })).json()).toMatchObject({
          booked: false,
        });
        expect(
          (await report(waiting!.id as string, { status: 'completed', txid: 'b'.repeat(64) })).json().error.code,
        ).toBe('payout_already_final');
        expect((await report(waiting!.id as string, { status: 'failed', reason: 'too late' })).statusCode).toBe(409);
        expect(await payoutTransfers(waiting!.id as string)).toBe(1);
        expect(await balance(u)).toBe('0.00598000');
        expect(await ledgerOk()).toBe(true);
      });

      it('gives amount and network fee back when the signer reports a failure', async () => {
        const u = await user(`refused-${kind}@muntly.test`, '0.01');
        const send = await sendOut(u, '0.005');
        await payOut(t);
        const { id } = await payoutOf(send.id);
        expect(
          (await report(id, { status: 'failed', reason: 'destination is a known scam address' })).json(),
        ).toMatchObject({
          booked: true,
          payout: { status: 'failed', failureReason: 'destination is a known scam address' },
        });
        expect(await sendState(u, send.id)).toMatchObject({ status: 'failed', txid: null });
        expect(await balance(u)).toBe('0.01000000');
        const history = (await t.app.inject({ url: '/api/wallet/transactions', headers: u.headers })).json()
          .transactions;
        expect(history[0]).toMatchObject({ type: 'payout_return', direction: 'in', amount: '0.00502000' });
        expect(await ledgerOk()).toBe(true);
      });

      it('lets an operator list payouts and report a result from the command line', async () => {
        const u = await user(`cli-${kind}@muntly.test`, '0.01');
        const send = await sendOut(u, '0.001');
        await payOut(t);
        const { id } = await payoutOf(send.id);
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        const url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
        const printed = await opsCliOutput(url, admin, async (ops) => {
          await ops(['payouts', '--status', 'submitted']);
          await ops(['payout-result', id, 'completed', 'd'.repeat(64)]);
          await ops(['payout-result', id, 'completed', 'd'.repeat(64)]);
        });
        expect(printed[0]).toMatch(
          new RegExp(`^${id} .* submitted +send +0\\.00100000 BTC \\(\\+0\\.00002000\\) → ${EXTERNAL}`),
        );
        expect(printed.slice(-2)).toEqual([
          `Payout ${id} (0.00100000 BTC) is now completed.`,
          `Payout ${id} was already completed with this result.`,
        ]);
        expect(await sendState(u, send.id)).toMatchObject({ status: 'completed', txid: 'd'.repeat(64) });
      });

      it('refuses reports the executor has no business making, and strangers', async () => {
        const u = await user(`early-${kind}@muntly.test`, '0.01');
        const send = await sendOut(u, '0.001');
        const { id } = await payoutOf(send.id);
        // Not handed to the executor yet: a report now is refused, nothing moves.
        expect((await report(id, { status: 'completed', txid: 'c'.repeat(64) })).json().error.code).toBe(
          'payout_not_submitted',
        );
        await payOut(t);
        expect((await report(id, { status: 'completed', txid: 'not a txid; drop table' })).statusCode).toBe(400);
        expect((await report(id, { status: 'failed', reason: '' })).statusCode).toBe(400);
        expect(
          (await report('00000000-0000-4000-8000-000000000000', { status: 'completed', txid: 'c'.repeat(64) }))
            .statusCode,
        ).toBe(404);
        const stranger = bearer(await signToken(t.keys, { sub: 'auth0|stranger', email: 'stranger@muntly.test' }));
        expect((await report(id, { status: 'completed', txid: 'c'.repeat(64) }, stranger)).statusCode).toBe(403);
        expect((await t.app.inject({ url: '/api/ops/payouts', headers: stranger })).statusCode).toBe(403);
        expect(await sendState(u, send.id)).toMatchObject({ status: 'processing' });
      });
    } else {
      it('survives a worker that dies between the adapter and the booking: taken again after its lease, paid once', async () => {
        const u = await user(`crash-${kind}@muntly.test`, '0.01');
        const send = await sendOut(u, '0.003');
        const died = new Error('SIGKILL');
        await expect(
          runPayouts(t.app.db, {
            adapters: t.app.workers.payoutAdapters,
            outcomes: t.app.workers.payoutOutcomes,
            leaseMs: 60_000,
            beforeBooking: async () => {
              throw died; // the adapter has paid; the process dies before booking it
            },
          }),
        ).rejects.toBe(died);
        const taken = await payoutOf(send.id);
        expect(taken).toMatchObject({ status: 'submitting', attempts: 1 });
        expect(await payOut(t)).toBe(0); // its lease still runs: no other worker touches it
        await t.app.db.execute(
          sql`update payouts set locked_until = now() - interval '1 millisecond' where id = ${taken.id}`,
        );
        expect(await payOut(t)).toBe(1);
        const state = await sendState(u, send.id);
        expect(state).toMatchObject({ status: 'completed', txid: expect.stringMatching(/^[0-9a-f]{64}$/) });
        expect(await payoutOf(send.id)).toMatchObject({
          status: 'completed',
          attempts: 2,
          idempotency_key: `send:${send.id}`,
        });
        // The chain was asked twice with the same key and paid once, with one txid.
        const broadcasts = (
          (await t.app.db.execute(
            sql`select attempts, body from outbox where channel = 'chain' and body like ${`%send:${send.id}%`}`,
          )) as unknown as { rows: { attempts: number; body: string }[] }
        ).rows;
        expect(broadcasts).toEqual([{ attempts: 1, body: expect.stringContaining(state.txid) }]);
        expect(await payoutTransfers(taken.id)).toBe(1);
        expect(await balance(u)).toBe('0.00698000');
        expect(await ledgerOk()).toBe(true);
      });

      it('drops a slow worker’s answer once its lease ran out and another worker booked the payout', async () => {
        const u = await user(`slow-${kind}@muntly.test`, '0.01');
        const send = await sendOut(u, '0.002');
        let other: Promise<number> | undefined;
        const slow = runPayouts(t.app.db, {
          adapters: t.app.workers.payoutAdapters,
          outcomes: t.app.workers.payoutOutcomes,
          leaseMs: 100,
          beforeBooking: async () => {
            await new Promise((resolve) => setTimeout(resolve, 300)); // the lease runs out meanwhile…
            other = payOut(t); // …and another worker takes the payout and books it
            await other;
          },
        });
        expect(await slow).toBe(0);
        expect(await other).toBe(1);
        const { id } = await payoutOf(send.id);
        expect(await payoutTransfers(id)).toBe(1);
        expect(await sendState(u, send.id)).toMatchObject({ status: 'completed' });
        expect(await ledgerOk()).toBe(true);
      });

      it('pays each of many payouts once with several workers at the same time', async () => {
        const u = await user(`many-${kind}@muntly.test`, '0.05');
        const sends = [];
        for (let i = 0; i < 8; i++) sends.push(await sendOut(u, '0.001'));
        const runs = await Promise.all([payOut(t), payOut(t), payOut(t)]);
        expect(runs.reduce((a, b) => a + b, 0)).toBe(8);
        for (const send of sends) {
          expect(await sendState(u, send.id)).toMatchObject({ status: 'completed' });
          expect(await payoutTransfers((await payoutOf(send.id)).id)).toBe(1);
        }
        expect(await ledgerOk()).toBe(true);
      });
    }
  });
});
