/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { verifyInclusion, type PublishedSnapshot } from '#domain/liabilities';
import { minorToDecimal } from '#domain/money';
import { systemAccount, transfer } from '../src/modules/ledger/service';
import { processOrders } from '../src/modules/orders/settlement';
import {
  bookAddresses,
  confirmSendFromMail,
  databaseKinds,
  fixedRates,
  payOut,
  testApp,
  testUser,
  type TestApp,
} from './helpers';
import type { MyProofResponse, SnapshotsResponse } from '#domain/contracts/liabilities';

/**
 * Issue 32, "Complete": everything Muntly owes is in the trees, not only wallet balances. Each
 * state below holds customers' money outside their wallets; the published totals must be what the
 * ledger says is owed: user accounts, the payouts clearing account, the unmatched account, and
 * the money of paid orders not yet converted (in the exchange account, per order).
 */
describe.each(databaseKinds())('the proof of liabilities counts every liability (%s)', (kind) => {
  let t: TestApp;
  const rates = fixedRates();
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates });
  }, 120_000);
  afterAll(() => t?.close());

  const rows = async <T>(query: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const place = async (payload: object) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/orders', payload });
    if (res.statusCode >= 300) throw new Error(`placing an order: ${res.body}`);
    return res.json() as { reference: string; shortReference: string; receiving: { address: string } | null };
  };

  /** What the ledger says is owed per currency, in minor units, read straight from its tables. */
  const owedByLedger = async () => {
    const owed = await rows<{ currency: string; owed: string }>(sql`
      select currency, sum(amount)::text as owed from (
        select currency, balance as amount from ledger_accounts where owner_id is not null or system_code in ('payouts', 'unmatched')
        union all
        select currency_from, amount_received from orders where status = 'processing' and settled_at is null and amount_received is not null
      ) owed group by currency having sum(amount) > 0 order by currency`);
    return Object.fromEntries(owed.map((r) => [r.currency, r.owed]));
  };

  it('sends waiting to be paid, exported SEPA payouts not yet booked, paid orders not yet converted, unclaimed money: all in the totals', async () => {
    // A wallet that sends 0.25 ETH (confirmed, waiting for the worker and the signer) and keeps 1 ETH.
    const holder = await testUser(t, `holder-${kind}@muntly.test`, { address: 'ETH', deposit: '1.25' });
    await bookAddresses(t, holder, [{ currency: 'ETH', address: '0x52908400098527886e0f7030069857d2e4169ee7' }]);
    const send = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/sends',
        headers: holder.headers,
        payload: { currency: 'ETH', address: '0x52908400098527886e0f7030069857d2e4169ee7', amount: '0.25' },
      })
    ).json();
    expect((await confirmSendFromMail(t, holder, send.id)).statusCode).toBe(200);
    // An anonymous sell converted to euros, its SEPA payout written into the payouts file, the bank not yet heard from.
    const sell = await place({
      type: 'sell',
      currencyFrom: 'BTC',
      currencyTo: 'EUR',
      amount: '0.001',
      email: `seller-${kind}@muntly.test`,
      address: 'NL91ABNA0417164300',
      beneficiary: 'Liv Seller',
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: t.admin,
      payload: { currency: 'BTC', address: sell.receiving!.address, amount: '0.001' },
    });
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates });
    const exported = await t.app.inject({ method: 'POST', url: '/api/ops/bank/payouts-export', headers: t.admin });
    expect(exported.json().export).toMatchObject({ payouts: 1 });
    // An anonymous buy paid by bank transfer, not yet converted (the worker has not run since).
    const buy = await place({
      type: 'buy',
      currencyFrom: 'EUR',
      currencyTo: 'BTC',
      amount: '90',
      email: `buyer-${kind}@muntly.test`,
      address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/ops/payment-received',
          headers: t.admin,
          payload: { reason: buy.shortReference, amount: '90.00' },
        })
      ).statusCode,
    ).toBe(200);
    // Coins at an address that expected nothing: in the unmatched queue, owed back to whoever sent them.
    await t.database.db.transaction(async (tx) =>
      transfer(tx, {
        id: `chain-unmatched:test-${kind}`,
        currency: 'LTC',
        debitAccountId: (await systemAccount(tx, 'chain', 'LTC')).id,
        creditAccountId: (await systemAccount(tx, 'unmatched', 'LTC')).id,
        amount: 31_000_000n,
        code: 'deposit',
      }),
    );

    const owed = await owedByLedger();
    // Each state is in the ledger's figure: the wallet balances alone would say less than 1 ETH, no EUR, no LTC.
    const [wallet] = await rows<{ balance: string }>(
      sql`select balance::text from ledger_accounts where owner_id is not null and currency = 'ETH'`,
    );
    expect(BigInt(wallet!.balance)).toBeLessThan(10n ** 18n);
    expect(owed.ETH).toBe('1250000000000000000');
    expect(BigInt(owed.EUR!)).toBeGreaterThan(9_000n + 7_000n);
    expect(owed.LTC).toBe('31000000');

    const published = (
      await t.app.inject({ method: 'POST', url: '/api/ops/liabilities/publish', headers: t.admin })
    ).json();
    const snapshot = (await t.app.inject({ url: published.file })).json() as PublishedSnapshot;
    expect(Object.fromEntries(snapshot.trees.map((tree) => [tree.currency, tree.root.sum]))).toEqual(owed);
    const listed = ((await t.app.inject({ url: '/api/liabilities' })).json() as SnapshotsResponse).snapshots[0]!;
    expect(Object.fromEntries(listed.currencies.map((c) => [c.currency, c.total]))).toEqual(
      Object.fromEntries(
        Object.entries(owed).map(([c, v]) => [c, minorToDecimal(BigInt(v), c === 'EUR' ? 2 : c === 'ETH' ? 18 : 8)]),
      ),
    );

    // The holder's proof counts the send waiting (and its network fee held) with the balance: Muntly still owes them 1.25 ETH.
    const { proofs } = (
      await t.app.inject({ url: '/api/wallet/proof', headers: holder.headers })
    ).json() as MyProofResponse;
    const eth = proofs[0]!.currencies.find((c) => c.currency === 'ETH')!;
    expect(eth.balance).toBe('1.250000000000000000');
    expect(
      verifyInclusion(
        eth,
        proofs[0]!.owner,
        proofs[0]!.nonce,
        snapshot.trees.find((tr) => tr.currency === 'ETH')!,
      ).ok,
    ).toBe(true);
  });

  it('once paid, a payout leaves the trees with the money: the totals follow the ledger again', async () => {
    expect(await payOut(t)).toBeGreaterThanOrEqual(1);
    const before = await owedByLedger();
    const [wallet] = await rows<{ balance: string }>(
      sql`select balance::text from ledger_accounts where owner_id is not null and currency = 'ETH'`,
    );
    expect(before.ETH).toBe(wallet!.balance);
    const published = (
      await t.app.inject({ method: 'POST', url: '/api/ops/liabilities/publish', headers: t.admin })
    ).json();
    const snapshot = (await t.app.inject({ url: published.file })).json() as PublishedSnapshot;
    expect(Object.fromEntries(snapshot.trees.map((tree) => [tree.currency, tree.root.sum]))).toEqual(before);
  });
});
