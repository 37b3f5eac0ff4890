/**
 * @jest-environment node
 */
import { UNUSED_ADDRESSES_PER_CURRENCY } from '#domain/limits';
import { testApp, testUser, balanceOf, databaseKinds, type TestApp } from './helpers';

describe.each(databaseKinds())('reception addresses and chain deposits (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    t = await testApp(kind);
    admin = t.admin;
  });
  afterAll(() => t.close());

  // No address of their own yet: the tests derive the first ones.
  const user = async (email: string, bankVerified = true) =>
    (await testUser(t, email, { verified: bankVerified ? ['bank'] : [], address: false })).headers;
  const create = (headers: Record<string, string>, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/wallet/addresses', headers, payload });
  const balance = (headers: Record<string, string>, currency: string) => balanceOf(t, headers, currency);

  it('needs a verified bank account', async () => {
    const res = await create(await user('unverified@muntly.test', false), { currency: 'BTC' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'bank_verification_required',
      message: 'You must verify your bank account to use this feature.',
    });
  });

  it('derives real addresses from the watch-only keys: BIP84 and Ethereum test vectors, XRP with a tag', async () => {
    const u = await user('first@muntly.test');
    const btc = await create(u, { currency: 'BTC', label: 'Savings' });
    expect(btc.statusCode).toBe(201);
    expect(btc.json()).toMatchObject({
      currency: 'BTC',
      address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      label: 'Savings',
    });
    expect((await create(u, { currency: 'eth' })).json().address).toBe('0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
    expect((await create(u, { currency: 'XRP' })).json().address).toBe('rHsMGQEkVNJmpGWs8XUBoTBiAAbwxZN5v3:1');
    expect((await create(u, { currency: 'BCH' })).json().address).toMatch(/^bitcoincash:q[02-9ac-hj-np-z]{41}$/);
    expect((await create(u, { currency: 'LTC' })).json().address).toMatch(/^ltc1q/);
    expect((await create(u, { currency: 'DOGE' })).json().address).toMatch(/^D/);
  });

  it('refuses partially supported and unknown currencies', async () => {
    const u = await user('partial@muntly.test');
    const partial = await create(u, { currency: 'USDT' });
    expect(partial.statusCode).toBe(409);
    expect(partial.json().error).toMatchObject({ code: 'currency_partially_supported', field: 'currency' });
    expect((await create(u, { currency: 'NOPE' })).json().error).toMatchObject({ field: 'currency' });
  });

  it('never gives one address to two users, even when requests race', async () => {
    const users = await Promise.all(['a', 'b', 'c', 'd'].map((x) => user(`race-${x}@muntly.test`)));
    const results = await Promise.all(
      Array.from({ length: 16 }, (_, i) => create(users[i % 4]!, { currency: 'DOGE' })),
    );
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    expect(new Set(results.map((r) => r.json().address)).size).toBe(16);
  });

  it(`holds at most ${UNUSED_ADDRESSES_PER_CURRENCY} unused addresses per currency, even when 30 requests race; a deposit makes room`, async () => {
    const u = await user('hoarder@muntly.test');
    const results = await Promise.all(Array.from({ length: 30 }, () => create(u, { currency: 'BTC' })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(UNUSED_ADDRESSES_PER_CURRENCY);
    const refused = results.find((r) => r.statusCode !== 201)!;
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'too_many_unused_addresses', field: 'currency' });
    // Another currency has its own room.
    expect((await create(u, { currency: 'LTC' })).statusCode).toBe(201);
    // Something arrives at one of them: it is used, and one more can be created.
    const used = results.find((r) => r.statusCode === 201)!.json().address;
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: admin,
      payload: { currency: 'BTC', address: used, amount: '0.001' },
    });
    expect((await create(u, { currency: 'BTC' })).statusCode).toBe(201);
    expect((await create(u, { currency: 'BTC' })).statusCode).toBe(409);
  });

  it("labels your own addresses; another user's address is a 404", async () => {
    const owner = await user('owner2@muntly.test');
    const other = await user('other2@muntly.test');
    const { id } = (await create(owner, { currency: 'LTC' })).json();
    const relabel = await t.app.inject({
      method: 'PATCH',
      url: `/api/wallet/addresses/${id}`,
      headers: owner,
      payload: { label: 'From work' },
    });
    expect(relabel.json().label).toBe('From work');
    const stolen = await t.app.inject({
      method: 'PATCH',
      url: `/api/wallet/addresses/${id}`,
      headers: other,
      payload: { label: 'Mine now' },
    });
    expect(stolen.statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/wallet/addresses/not-a-uuid',
          headers: other,
          payload: { label: 'x' },
        })
      ).statusCode,
    ).toBe(404);
    const list = (await t.app.inject({ url: '/api/wallet/addresses', headers: other })).json().addresses;
    expect(list.map((x: { id: string }) => x.id)).not.toContain(id);
  });

  it('credits a chain deposit once per transaction id', async () => {
    const u = await user('depositor@muntly.test');
    const { address } = (await create(u, { currency: 'BTC' })).json();
    const deposit = (payload: object) =>
      t.app.inject({ method: 'POST', url: '/api/ops/chain-deposit', headers: admin, payload });
    const first = await deposit({ currency: 'BTC', address, amount: '0.015', txid: 'tx-1' });
    expect(first.json()).toMatchObject({ credited: true, amount: '0.01500000' });
    expect((await deposit({ currency: 'BTC', address, amount: '0.015', txid: 'tx-1' })).json().credited).toBe(false);
    expect(await balance(u, 'BTC')).toBe('0.01500000');
    expect((await deposit({ currency: 'BTC', address: 'bc1-not-an-address', amount: '1' })).json().error.code).toBe(
      'invalid_address',
    );
    expect((await deposit({ currency: 'BTC', address, amount: '0.123456789' })).json().error.field).toBe('amount');
    expect(
      (await deposit({ currency: 'BTC', address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2', amount: '1' })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/api/ops/ledger/verify', headers: admin })).json().ok).toBe(true);
  });
});
