/**
 * @jest-environment node
 */
import { testApp, signToken, bearer, databaseKinds, type TestApp } from './helpers';

describe.each(databaseKinds())('wallet transactions (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  let owner: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: { current: async () => ({ at: 'now', rates: { BTC: '80000', LTC: '90' } }) } });
    admin = bearer(await signToken(t.keys, { sub: 'operator', scope: 'use:muntly admin:muntly' }));
    owner = bearer(await signToken(t.keys, { sub: 'auth0|tx-owner', email: 'tx-owner@muntly.test' }));
    await t.app.inject({ url: '/api/me', headers: owner });
    await t.app.inject({ method: 'POST', url: '/api/ops/verification/verify', headers: admin, payload: { email: 'tx-owner@muntly.test', kind: 'bank' } });
    const btc = (await t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers: owner, payload: { currency: 'BTC', label: 'Main, "savings"' } })).json();
    const ltc = (await t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers: owner, payload: { currency: 'LTC' } })).json();
    for (let i = 1; i <= 5; i++) {
      await t.app.inject({ method: 'POST', url: '/api/ops/chain-deposit', headers: admin, payload: { currency: 'BTC', address: btc.address, amount: `0.00${i}`, txid: `btc-${i}` } });
    }
    await t.app.inject({ method: 'POST', url: '/api/ops/chain-deposit', headers: admin, payload: { currency: 'LTC', address: ltc.address, amount: '2', txid: 'ltc-1' } });
  });
  afterAll(() => t.close());

  const list = (query: string, headers = owner) => t.app.inject({ url: `/api/wallet/transactions${query}`, headers });

  it('lists transactions newest first with amount, EUR value at the time, address and label', async () => {
    const { transactions, nextCursor } = (await list('')).json();
    expect(nextCursor).toBeNull();
    expect(transactions).toHaveLength(6);
    expect(transactions[0]).toMatchObject({ type: 'deposit', direction: 'in', currency: 'LTC', amount: '2.00000000', eurValue: '180.00', status: 'completed' });
    expect(transactions[1]).toMatchObject({ currency: 'BTC', amount: '0.00500000', eurValue: '400.00', label: 'Main, "savings"' });
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
    expect(lines[0]).toBe('date,type,direction,currency,amount,fee,eurValue,address,label,status,id');
    expect(lines).toHaveLength(7);
    expect(lines[2]).toContain(',BTC,0.00500000,,400.00,bc1q');
    expect(lines[2]).toContain('"Main, ""savings"""');
  });

  it("shows nothing of another user's wallet", async () => {
    const other = bearer(await signToken(t.keys, { sub: 'auth0|tx-other' }));
    expect((await list('', other)).json()).toEqual({ transactions: [], nextCursor: null });
    expect((await list('?format=csv', other)).body.trim().split('\r\n')).toHaveLength(1);
  });
});
