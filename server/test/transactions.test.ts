/**
 * @jest-environment node
 */
import fc from 'fast-check';
import { looksLikeFormula } from '../src/csv';
import { processOrders } from '../src/modules/orders/settlement';
import { toCsv, type TransactionView } from '../src/modules/wallet/transactions';
import {
  bookAddresses,
  confirmSendFromMail,
  payOut,
  testApp,
  testUser,
  fixedRates,
  signToken,
  bearer,
  databaseKinds,
  type TestApp,
  type TestUser,
} from './helpers';

const INJECTION = "-1+cmd|' /C calc'!A0";

describe.each(databaseKinds())('wallet transactions (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let owner: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
    admin = t.admin;
    const btc = await testUser(t, 'tx-owner@muntly.test', { label: 'Main, "savings"' });
    owner = btc.headers;
    const ltc = (
      await t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers: owner, payload: { currency: 'LTC' } })
    ).json();
    for (let i = 1; i <= 5; i++) {
      await t.app.inject({
        method: 'POST',
        url: '/api/ops/chain-deposit',
        headers: admin,
        payload: { currency: 'BTC', address: btc.address, amount: `0.00${i}`, txid: `btc-${i}` },
      });
    }
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: admin,
      payload: { currency: 'LTC', address: ltc.address, amount: '2', txid: 'ltc-1' },
    });
  });
  afterAll(() => t.close());

  const list = (query: string, headers = owner) => t.app.inject({ url: `/api/wallet/transactions${query}`, headers });

  it('lists transactions newest first with amount, EUR value at the time, address and label', async () => {
    const { transactions, nextCursor } = (await list('')).json();
    expect(nextCursor).toBeNull();
    expect(transactions).toHaveLength(6);
    expect(transactions[0]).toMatchObject({
      type: 'deposit',
      direction: 'in',
      currency: 'LTC',
      amount: '2.00000000',
      eurValue: '180.00',
      txid: 'ltc-1',
      status: 'completed',
    });
    expect(transactions[1]).toMatchObject({
      currency: 'BTC',
      amount: '0.00500000',
      eurValue: '400.00',
      label: 'Main, "savings"',
    });
  });

  it('pages with a cursor and filters by currency', async () => {
    const first = (await list('?currency=btc&limit=2')).json();
    expect(first.transactions.map((x: { amount: string }) => x.amount)).toEqual(['0.00500000', '0.00400000']);
    const second = (await list(`?currency=BTC&limit=2&cursor=${first.nextCursor}`)).json();
    expect(second.transactions.map((x: { amount: string }) => x.amount)).toEqual(['0.00300000', '0.00200000']);
    const third = (await list(`?currency=BTC&limit=2&cursor=${second.nextCursor}`)).json();
    expect(third.transactions.map((x: { amount: string }) => x.amount)).toEqual(['0.00100000']);
    expect(third.nextCursor).toBeNull();
    expect((await list('?cursor=garbage')).statusCode).toBe(400);
  });

  it('downloads the same as CSV', async () => {
    const res = await list('?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('attachment');
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('date,type,direction,currency,amount,fee,eurValue,address,label,status,txid,id');
    expect(lines).toHaveLength(7);
    expect(lines[2]).toContain(',BTC,0.00500000,,400.00,bc1q');
    expect(lines[2]).toContain('"Main, ""savings"""');
    expect(lines[2]).toContain(',completed,btc-5,');
  });

  it("shows nothing of another user's wallet", async () => {
    const other = bearer(await signToken(t.keys, { sub: 'auth0|tx-other' }));
    expect((await list('', other)).json()).toEqual({ transactions: [], nextCursor: null });
    expect((await list('?format=csv', other)).body.trim().split('\r\n')).toHaveLength(1);
  });

  async function send(from: TestUser, address: string, amount: string, label: string) {
    await bookAddresses(t, from, [address]);
    const started = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/sends',
        headers: from.headers,
        payload: { currency: 'BTC', address, amount, label },
      })
    ).json();
    expect((await confirmSendFromMail(t, from, started.id)).statusCode).toBe(200);
  }

  it("an external send's network-fee row carries the fee's own EUR value: the rows' values add up to what left", async () => {
    const u = await testUser(t, `fee-rows-${kind}@muntly.test`, { deposit: '0.01' });
    await send(u, '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '0.005', 'Rent');
    const rows = (await list('', u.headers)).json().transactions as TransactionView[];
    expect(rows.find((r) => r.type === 'send')).toMatchObject({ amount: '0.00500000', eurValue: '400.00' });
    expect(rows.find((r) => r.type === 'fee')).toMatchObject({ amount: '0.00002000', eurValue: '1.60' });
  });

  it("a send's rows carry the chain's transaction hash once it is paid out, not before; an internal send has none", async () => {
    const u = await testUser(t, `txid-rows-${kind}@muntly.test`, { deposit: '0.01' });
    const other = await testUser(t, `txid-other-${kind}@muntly.test`);
    await send(u, '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', '0.002', 'Out');
    await send(u, other.address, '0.001', 'In house');
    const before = (await list('', u.headers)).json().transactions as TransactionView[];
    expect(
      before.filter((r) => r.type === 'send' || r.type === 'fee' || r.type === 'internal').map((r) => r.txid),
    ).toEqual([null, null, null]);
    await payOut(t);
    const after = (await list('', u.headers)).json().transactions as TransactionView[];
    const sent = after.find((r) => r.type === 'send')!;
    expect(sent.txid).toMatch(/^[0-9a-f]{64}$/);
    expect(after.find((r) => r.type === 'fee')!.txid).toBe(sent.txid);
    expect(after.find((r) => r.type === 'internal')!.txid).toBeNull();
    // The deposit that funded the wallet carries its own hash.
    expect(after.find((r) => r.type === 'deposit')!.txid).toEqual(expect.any(String));
    // The recipient of the internal send sees no hash either.
    expect(
      ((await list('', other.headers)).json().transactions as TransactionView[]).find((r) => r.type === 'internal')!
        .txid,
    ).toBeNull();
  });

  it('every row of an exchange through the wallet carries its own EUR value: what left, and what came in after the fee', async () => {
    const u = await testUser(t, `own-rows-${kind}@muntly.test`, { deposit: '0.01' });
    const sell = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: u.headers,
      payload: {
        type: 'sell',
        currencyFrom: 'BTC',
        currencyTo: 'EUR',
        amount: '0.001',
        email: u.email,
        useMyWallet: true,
        sendToMyWallet: true,
      },
    });
    expect(sell.statusCode).toBe(201);
    await processOrders(t.database.db, { ...t.app.workers.settlement, rates: fixedRates() });
    const rows = (await list('', u.headers)).json().transactions as TransactionView[];
    // 0.001 BTC at 80,000 EUR left the wallet worth 80.00 EUR; 1.50 % fee, 78.80 EUR came in.
    expect(rows.find((r) => r.type === 'order' && r.direction === 'out')).toMatchObject({
      currency: 'BTC',
      amount: '0.00100000',
      eurValue: '80.00',
    });
    expect(rows.find((r) => r.type === 'order' && r.direction === 'in')).toMatchObject({
      currency: 'EUR',
      amount: '78.80',
      eurValue: '78.80',
    });
  });

  it("a label is its writer's: the recipient of an internal send never sees the sender's label, in the list or the export", async () => {
    const a = await testUser(t, `label-a-${kind}@muntly.test`, { deposit: '0.01' });
    const b = await testUser(t, `label-b-${kind}@muntly.test`, { label: 'My savings' });
    await send(a, b.address, '0.001', INJECTION);
    const incoming = ((await list('', b.headers)).json().transactions as TransactionView[]).find(
      (r) => r.type === 'internal',
    )!;
    expect(incoming).toMatchObject({ direction: 'in', label: null });
    expect((await list('?format=csv', b.headers)).body).not.toContain('cmd|');
    // The sender sees their own note, and their export neutralises it.
    const outgoing = ((await list('', a.headers)).json().transactions as TransactionView[]).find(
      (r) => r.type === 'internal',
    )!;
    expect(outgoing).toMatchObject({ direction: 'out', label: INJECTION });
    expect((await list('?format=csv', a.headers)).body).toContain(`,'${INJECTION},`);
  });
});

describe('CSV export', () => {
  const row = (label: string): TransactionView => ({
    id: 'x',
    date: '2026-01-01T00:00:00.000Z',
    type: 'send',
    direction: 'out',
    currency: 'BTC',
    amount: '-1.5',
    fee: null,
    eurValue: '12.00',
    address: null,
    label,
    txid: null,
    status: 'completed',
  });

  it('neutralises every cell that begins like a formula, unless the whole cell is a plain number (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom('=', '+', '-', '@', '\t', '\r'), fc.string(), (first, rest) => {
        const text = first + rest;
        const csv = toCsv([row(text)]);
        const plainNumber = /^-?\d+(\.\d+)?$/.test(text);
        expect(looksLikeFormula(text)).toBe(!plainNumber);
        // In the file the cell starts with an apostrophe (inside quotes when it needs them).
        if (!plainNumber) expect(csv).toMatch(/,"?'/);
      }),
    );
    expect(toCsv([row('-12.50')]).split('\r\n')[1]).toContain(',-12.50,');
    expect(toCsv([row(INJECTION)]).split('\r\n')[1]).toContain(`,'${INJECTION},`);
  });
});
