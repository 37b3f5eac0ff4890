/**
 * @jest-environment node
 */
import { accountsRepository } from '../src/modules/accounts/repository';
import { systemAccount, transfer, userAccount, verifyLedger } from '../src/modules/ledger/service';
import { testApp, signToken, bearer, loggedIn, fixedRates, databaseKinds, type TestApp } from './helpers';

describe.each(databaseKinds())('wallet balances (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates({ ETH: '3000.5' }) }); // a price with a fraction
  });
  afterAll(() => t.close());

  it('lists every listed currency at zero for a new user', async () => {
    const res = await t.app.inject({
      url: '/api/wallet/balances',
      headers: bearer(await signToken(t.keys, { email: 'new@muntly.test' })),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.balances).toHaveLength(25); // euros first, then the 24 listed currencies
    expect(body.balances[0]).toEqual({
      currency: 'EUR',
      name: 'Euro',
      balance: '0.00',
      eurEstimate: '0.00',
      support: 'full',
    });
    expect(body.balances[1]).toEqual({
      currency: 'BTC',
      name: 'Bitcoin',
      balance: '0.00000000',
      eurEstimate: '0.00',
      support: 'full',
    });
    expect(body.balances.find((b: { currency: string }) => b.currency === 'USDT')).toMatchObject({
      support: 'partial',
      notice: 'This currency is only partially supported.',
    });
    expect(body.totalEur).toBe('0.00');
  });

  it('shows ledger balances as decimal strings with their EUR estimate and the total', async () => {
    const headers = await loggedIn(t, 'rich@muntly.test');
    const [account] = await accountsRepository.findByEmail(t.app.db, 'rich@muntly.test');
    for (const [currency, amount] of [
      ['BTC', 1_500_000n],
      ['ETH', 2_000_000_000_000_000_000n], // 2 ETH in wei
      ['XRP', 1n],
    ] as const) {
      const to = await userAccount(t.app.db, account!.id, currency);
      await transfer(t.app.db, {
        id: `deposit:rich:${currency}`,
        currency,
        debitAccountId: (await systemAccount(t.app.db, 'chain', currency)).id,
        creditAccountId: to.id,
        amount,
        code: 'deposit',
      });
    }
    const body = (await t.app.inject({ url: '/api/wallet/balances', headers })).json();
    const of = (code: string) => body.balances.find((b: { currency: string }) => b.currency === code);
    expect(of('BTC')).toMatchObject({ balance: '0.01500000', eurEstimate: '1200.00' });
    expect(of('ETH')).toMatchObject({ balance: '2.000000000000000000', eurEstimate: '6001.00' });
    expect(of('XRP')).toMatchObject({ balance: '0.000001', eurEstimate: '0.00' });
    expect(body.totalEur).toBe('7201.00');
  });

  it('keeps ether to the wei, past what an int8 holds (9.2 ETH): 25 ETH and 1 wei in, 25 ETH and 1 wei shown', async () => {
    const headers = await loggedIn(t, 'whale@muntly.test');
    const [account] = await accountsRepository.findByEmail(t.app.db, 'whale@muntly.test');
    const to = await userAccount(t.app.db, account!.id, 'ETH');
    const chain = (await systemAccount(t.app.db, 'chain', 'ETH')).id;
    await transfer(t.app.db, {
      id: 'deposit:whale:1',
      currency: 'ETH',
      debitAccountId: chain,
      creditAccountId: to.id,
      amount: 25n * 10n ** 18n,
      code: 'deposit',
    });
    await transfer(t.app.db, {
      id: 'deposit:whale:2',
      currency: 'ETH',
      debitAccountId: chain,
      creditAccountId: to.id,
      amount: 1n,
      code: 'deposit',
    });
    const body = (await t.app.inject({ url: '/api/wallet/balances', headers })).json();
    expect(body.balances.find((b: { currency: string }) => b.currency === 'ETH')).toMatchObject({
      balance: '25.000000000000000001',
      eurEstimate: '75012.50',
    });
    expect((await verifyLedger(t.app.db)).filter((check) => !check.ok)).toEqual([]);
  });

  it('needs a login', async () => {
    expect((await t.app.inject({ url: '/api/wallet/balances' })).statusCode).toBe(401);
  });
});
