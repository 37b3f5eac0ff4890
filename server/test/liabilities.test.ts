/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { MIN_LEAF_COUNT, verifyInclusion, verifySnapshot, type PublishedSnapshot } from '#domain/liabilities';
import { simulatedChain } from '../src/dev/simulated-chain';
import { TEST_XPUBS } from '../src/modules/chain/service';
import { systemAccount, transfer, userAccount } from '../src/modules/ledger/service';
import { publishSnapshot, SCHEDULE_ACTOR } from '../src/modules/liabilities/service';
import {
  bookAddresses,
  confirmSendFromMail,
  databaseKinds,
  fixedRates,
  opsCliOutput,
  payOut,
  testApp,
  testUser,
  type TestApp,
  type TestUser,
} from './helpers';
import type { MyProofResponse, Reserves, SnapshotsResponse } from '#domain/contracts/liabilities';
import type { LedgerVerifyResponse } from '#domain/contracts/ops';

const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

describe.each(databaseKinds())('proof of liabilities (%s)', (kind) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
    alice = await testUser(t, 'alice@muntly.test', { address: 'BTC', deposit: '0.12345678' });
    bob = await testUser(t, 'bob@muntly.test', { address: 'BTC', deposit: '1.5' });
    carol = await testUser(t, 'carol@muntly.test', { address: 'DOGE', deposit: '420.5' });
    // Alice holds DOGE too, and an address that never received anything.
    const doge = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/addresses',
        headers: alice.headers,
        payload: { currency: 'DOGE' },
      })
    ).json().address;
    await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain-deposit',
      headers: t.admin,
      payload: { currency: 'DOGE', address: doge, amount: '7' },
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/wallet/addresses',
      headers: bob.headers,
      payload: { currency: 'ETH' },
    });
  });
  afterAll(() => t.close());

  const publish = async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/liabilities/publish', headers: t.admin });
    expect(res.statusCode).toBe(200);
    return res.json();
  };
  const file = async (path: string) => {
    const res = await t.app.inject({ url: path });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    return res.json() as PublishedSnapshot;
  };
  const proofsOf = async (user: TestUser) =>
    (await t.app.inject({ url: '/api/wallet/proof', headers: user.headers })).json() as MyProofResponse;

  it('publishes a root per currency whose total is what ledger:verify says users hold, to the minor unit', async () => {
    const published = await publish();
    const { owedToUsers } = (
      await t.app.inject({ url: '/api/ops/ledger/verify', headers: t.admin })
    ).json() as LedgerVerifyResponse;
    expect(owedToUsers).toEqual([
      { currency: 'BTC', total: '1.62345678' },
      { currency: 'DOGE', total: '427.50000000' },
    ]);
    expect(
      published.currencies.map((c: { currency: string; total: string }) => ({ currency: c.currency, total: c.total })),
    ).toEqual(owedToUsers);
    // The root's amount in the published file is the same total in minor units.
    const snapshot = await file(published.file);
    expect(snapshot.trees.map((tree) => [tree.currency, tree.root.sum])).toEqual([
      ['BTC', '162345678'],
      ['DOGE', '42750000000'],
    ]);
    expect(await file('/proof/latest.json')).toEqual(snapshot);
    expect(verifySnapshot(snapshot)).toMatchObject({ ok: true, problems: [] });
    // One currency's file holds its tree alone, and verifies the same way.
    const btc = await file(`/proof/${published.snapshotId}/BTC.json`);
    expect(btc.trees).toEqual([snapshot.trees[0]]);
    expect(verifySnapshot(btc).ok).toBe(true);
    // The API has the same file.
    expect((await t.app.inject({ url: `/api/liabilities/${published.snapshotId}` })).json()).toEqual(snapshot);
  });

  it('gives each user their id, nonce, leaves and paths; the leaves are theirs alone, lead to the published root and add up to what they are owed', async () => {
    const { trees } = await file('/proof/latest.json');
    for (const [user, expected] of [
      [alice, { BTC: '0.12345678', DOGE: '7.00000000' }],
      [bob, { BTC: '1.50000000' }],
      [carol, { DOGE: '420.50000000' }],
    ] as const) {
      const { proofs } = await proofsOf(user);
      expect(proofs).toHaveLength(1);
      const [proof] = proofs;
      expect(proof!.owner).toBe(await accountId(user));
      expect(Object.fromEntries(proof!.currencies.map((c) => [c.currency, c.balance]))).toEqual(expected);
      for (const c of proof!.currencies) {
        const tree = trees.find((tr) => tr.currency === c.currency)!;
        expect([c.root, c.leafCount]).toEqual([tree.root, tree.leafCount]);
        expect(c.leaves.length).toBeGreaterThanOrEqual(2);
        expect(verifyInclusion(c, proof!.owner, proof!.nonce, tree)).toMatchObject({ ok: true, distinct: true });
        // The same leaves do not prove anything for another account.
        expect(verifyInclusion(c, await accountId(user === bob ? alice : bob), proof!.nonce, tree).ok).toBe(false);
      }
    }
    const res = await t.app.inject({ url: '/api/wallet/proof', headers: alice.headers });
    expect(res.headers['cache-control']).toBe('no-store'); // the nonce is a secret: no cache keeps it
    expect((await t.app.inject({ url: '/api/wallet/proof' })).statusCode).toBe(401);
  });

  it('publishes no email, account key, account id, nonce, deposit address or balance of anyone', async () => {
    const published = [
      (await t.app.inject({ url: '/proof/latest.json' })).body,
      (await t.app.inject({ url: '/api/liabilities' })).body,
      (await t.app.inject({ url: '/proof/1/BTC.json' })).body,
    ].join('\n');
    const ids = (await t.app.db.execute(sql`select id from accounts`)) as unknown as { rows: { id: string }[] };
    const deposits = (await t.app.db.execute(sql`select address from reception_addresses`)) as unknown as {
      rows: { address: string }[];
    };
    for (const user of [alice, bob, carol]) {
      expect(published).not.toContain(user.email);
      expect(published).not.toContain(user.accountKey);
      expect(published).not.toContain((await proofsOf(user)).proofs[0]!.nonce);
    }
    for (const { id } of ids.rows) expect(published).not.toContain(id);
    expect(deposits.rows.length).toBeGreaterThan(3);
    for (const { address } of deposits.rows) expect(published).not.toContain(address);
  });

  it('the subset-sum linking attack on everything published links no balance and no deposit to anyone', async () => {
    // What an outsider has: every amount in the published files, per currency.
    const snapshot = await file('/proof/latest.json');
    const listing = ((await t.app.inject({ url: '/api/liabilities' })).json() as SnapshotsResponse).snapshots[0]!;
    const reserves = snapshot.reserves as Reserves;
    const published = new Map<string, bigint[]>();
    const add = (currency: string, decimal: string | null | undefined) => {
      if (!decimal) return;
      const places = snapshot.trees.find((tr) => tr.currency === currency)?.decimals ?? 8;
      const [whole, fraction = ''] = decimal.replace('-', '').split('.');
      published.set(currency, [
        ...(published.get(currency) ?? []),
        BigInt(whole! + fraction.padEnd(places, '0').slice(0, places)),
      ]);
    };
    for (const tree of snapshot.trees) published.set(tree.currency, [BigInt(tree.root.sum)]);
    for (const c of listing.currencies) [c.total, c.held, c.difference].forEach((d) => add(c.currency, d));
    for (const r of reserves.currencies)
      [r.held, r.depositAddresses?.balance, ...(r.addresses ?? []).map((a) => a.balance)].forEach((d) =>
        add(r.currency, d),
      );
    // What the attacker wants to link: each customer's own amounts (balances, deposits), known to them from elsewhere.
    const secrets: [string, bigint][] = [
      ['BTC', 12_345_678n],
      ['BTC', 150_000_000n],
      ['DOGE', 700_000_000n],
      ['DOGE', 42_050_000_000n],
    ];
    const subsetSums = (amounts: bigint[]) =>
      amounts.reduce((sums, a) => new Set([...sums, ...[...sums].map((s) => s + a)]), new Set([0n]));
    for (const [currency, secret] of secrets)
      expect([currency, subsetSums(published.get(currency) ?? []).has(secret)]).toEqual([currency, false]);
    // And the number of holders is not in the file: one holder or many, every tree has the same size.
    expect(new Set(snapshot.trees.map((tr) => tr.leafCount))).toEqual(new Set([MIN_LEAF_COUNT]));
  });

  it('a user sees only their own snapshots, newest first, paged', async () => {
    await publish();
    const [first, second] = [(await proofsOf(alice)).proofs, (await proofsOf(carol)).proofs];
    expect(first.map((p) => p.snapshotId)).toEqual([2, 1]);
    expect(first[0]!.nonce).not.toBe(first[1]!.nonce); // a fresh secret every snapshot
    expect(second[0]!.nonce).not.toBe(first[0]!.nonce);
    const paged = (
      await t.app.inject({ url: '/api/wallet/proof?limit=1', headers: alice.headers })
    ).json() as MyProofResponse;
    expect([paged.proofs.map((p) => p.snapshotId), paged.next]).toEqual([[2], 2]);
    const rest = (
      await t.app.inject({ url: `/api/wallet/proof?limit=1&before=${paged.next}`, headers: alice.headers })
    ).json() as MyProofResponse;
    expect([rest.proofs.map((p) => p.snapshotId), rest.next]).toEqual([[1], null]);
    // Someone who held nothing at a snapshot is not in it.
    const dave = await testUser(t, 'dave@muntly.test', { address: false });
    expect((await proofsOf(dave)).proofs).toEqual([]);
  });

  it('lists snapshots for anyone: owed against held and the difference, at a block height; deposit addresses counted, not listed', async () => {
    const { snapshots, next } = (await t.app.inject({ url: '/api/liabilities' })).json() as SnapshotsResponse;
    expect(snapshots.map((s) => s.snapshotId)).toEqual([2, 1]);
    expect(next).toBeNull();
    expect(snapshots[0]).toMatchObject({
      format: 'muntly-liabilities-2',
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(snapshots[0]!.currencies).toEqual([
      expect.objectContaining({
        currency: 'BTC',
        total: '1.62345678',
        held: '1.62345678',
        difference: '0.00000000',
        height: expect.any(Number),
        controlled: 0,
        file: '/proof/2/BTC.json',
      }),
      expect.objectContaining({
        currency: 'DOGE',
        total: '427.50000000',
        held: '427.50000000',
        difference: '0.00000000',
      }),
    ]);
    const { reserves } = (await file('/proof/2.json')) as PublishedSnapshot & { reserves: Reserves };
    expect(reserves.source).toBe('simulated-chain');
    expect(reserves.currencies.find((c) => c.currency === 'BTC')).toEqual({
      currency: 'BTC',
      height: expect.any(Number),
      blockHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      addresses: [],
      depositAddresses: { count: 2, balance: '1.62345678' },
      held: '1.62345678',
    });
    expect(reserves.currencies.find((c) => c.currency === 'XRP')!.addresses).toEqual([
      { address: TEST_XPUBS.XRP, role: 'account', balance: '0.000000' },
    ]);
  });

  it('a payout leaves the house’s addresses on the simulated chain: held follows owed', async () => {
    await bookAddresses(t, bob, [EXTERNAL]);
    const send = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/sends',
        headers: bob.headers,
        payload: { currency: 'BTC', address: EXTERNAL, amount: '0.001' },
      })
    ).json();
    expect((await confirmSendFromMail(t, bob, send.id)).statusCode).toBe(200);
    expect(await payOut(t)).toBe(1);
    const published = await publish();
    const btc = published.currencies.find((c: { currency: string }) => c.currency === 'BTC');
    // Bob paid 0.001 BTC and the 0.00002 BTC network fee; the simulated chain spent both from the fullest address.
    expect(btc).toMatchObject({ total: '1.62243678', held: '1.62243678', difference: '0.00000000' });
  });

  it('takes every balance at one instant: money moving between users during a snapshot is counted once', async () => {
    const [a, b] = await Promise.all([
      userAccount(t.app.db, await accountId(alice), 'BTC'),
      userAccount(t.app.db, await accountId(bob), 'BTC'),
    ]);
    let moving = true;
    const shuffle = (async () => {
      for (let n = 0; moving; n++) {
        const [from, to] = n % 2 ? [a, b] : [b, a];
        await transfer(t.app.db, {
          id: `shuffle:${kind}:${n}`,
          currency: 'BTC',
          debitAccountId: from.id,
          creditAccountId: to.id,
          amount: 1000n,
          code: 'internal',
        });
        // Let the snapshot's requests in between (PGlite serves one connection).
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const totals = [];
    for (let i = 0; i < 4; i++)
      totals.push((await publish()).currencies.find((c: { currency: string }) => c.currency === 'BTC').total);
    moving = false;
    await shuffle;
    expect(new Set(totals)).toEqual(new Set(['1.62243678']));
  });

  it('the schedule publishes once per period, whichever replica asks, and only then', async () => {
    const deps = { chain: simulatedChain(), xpubs: TEST_XPUBS };
    const count = async () =>
      Number(
        (
          (await t.app.db.execute(sql`select count(*)::int as n from liability_snapshots`)) as unknown as {
            rows: { n: number }[];
          }
        ).rows[0]!.n,
      );
    const before = await count();
    const runs = await Promise.all([1, 2, 3].map(() => publishSnapshot(t.app.db, deps, { intervalMs: 86_400_000 })));
    expect(runs.filter((r) => r !== null)).toHaveLength(1);
    expect(await publishSnapshot(t.app.db, deps, { intervalMs: 86_400_000 })).toBeNull();
    expect(await count()).toBe(before + 1);
    const [row] = (
      await t.app.inject({ url: '/api/ops/audit?action=liabilities.publish&limit=1', headers: t.admin })
    ).json().entries;
    expect([row.actor, row.target]).toEqual([SCHEDULE_ACTOR, String(runs.find((r) => r !== null)!.snapshotId)]);
  });

  it('operators act while snapshots are taken: every publish and every action is in the audit trail, which holds', async () => {
    let acting = true;
    let actions = 0;
    const operator = (async () => {
      while (acting) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/ops/faucet/fund',
          headers: t.admin,
          payload: { eur: '0.01' },
        });
        expect(res.statusCode).toBe(200);
        actions++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const ids: number[] = [];
    try {
      for (let i = 0; i < 4; i++) ids.push((await publish()).snapshotId);
    } finally {
      acting = false;
      await operator;
    }
    expect(actions).toBeGreaterThan(0);
    const audit = await t.app.inject({ url: '/api/ops/audit?action=liabilities.publish&limit=4', headers: t.admin });
    expect(audit.json().entries.map((e: { target: string; actor: string }) => [e.target, e.actor])).toEqual(
      ids.reverse().map((id) => [String(id), expect.any(String)]),
    );
    const [last] = audit.json().entries;
    expect(last.actor).not.toBe(SCHEDULE_ACTOR);
    expect(last.after.roots).toEqual([
      expect.objectContaining({
        currency: 'BTC',
        total: '1.62243678',
        rootHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
      expect.objectContaining({ currency: 'DOGE', total: '427.50000000' }),
    ]);
    expect(
      (await t.app.inject({ url: '/api/ops/audit?action=faucet.fund&limit=200', headers: t.admin })).json().entries
        .length,
    ).toBeGreaterThanOrEqual(actions);
    expect((await t.app.inject({ url: '/api/ops/audit/verify', headers: t.admin })).json()).toMatchObject({ ok: true });
  });

  it('npm run ops -- liabilities:publish prints the roots; ledger:verify prints what users hold', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address() as { port: number };
    const printed = await opsCliOutput(`http://127.0.0.1:${address.port}`, t.admin, async (run) => {
      await run(['liabilities:publish']);
      await run(['ledger:verify']);
    });
    expect(printed[0]).toMatch(/^Published snapshot \d+ of .*: \/proof\/\d+\.json$/);
    expect(printed[1]).toMatch(/^ {2}BTC {3}owed 1\.62243678 {2}held 1\.62243678 {2}4096 leaves {2}root [0-9a-f]{64}$/);
    expect(printed).toContain('Users hold: 1.62243678 BTC, 427.50000000 DOGE');
    const audit = (await t.app.db.execute(
      sql`select actor from audit_log where action = 'liabilities.publish'`,
    )) as unknown as { rows: { actor: string }[] };
    expect(audit.rows.length).toBeGreaterThanOrEqual(3);
  });

  it('answers unknown snapshots and files with not_found, bad ids with a clear error, never a 5xx; only a published file is cacheable', async () => {
    for (const path of [
      '/proof/9999.json',
      '/proof/abc.json',
      '/proof/1/btc.json',
      '/proof/1/SOL.json',
      '/proof/0.json',
      '/api/liabilities/9999',
      '/proof/9999/BTC.json',
      '/proof/9999/control.json',
      '/api/liabilities/9999/control',
    ]) {
      const res = await t.app.inject({ url: path });
      // A snapshot not yet published: a CDN must not keep the 404 (it would hide the file for everyone once it is published).
      expect([
        path,
        res.statusCode,
        /^no-store$|no-cache|max-age=0,/.test(String(res.headers['cache-control'])),
      ]).toEqual([path, 404, true]);
    }
    expect((await t.app.inject({ url: '/proof/1.json' })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    const bad = await t.app.inject({ url: '/api/liabilities/abc' });
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'validation_failed']);
    expect((await t.app.inject({ url: '/api/liabilities?limit=500' })).json().error.code).toBe('validation_failed');
  });

  const accountId = async (user: TestUser) =>
    (
      (await t.app.db.execute(sql`select id from accounts where account_key = ${user.accountKey}`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows[0]!.id;

  it('an empty ledger publishes an empty snapshot: nothing is owed', async () => {
    const fresh = await testApp(kind);
    try {
      const res = await fresh.app.inject({ method: 'POST', url: '/api/ops/liabilities/publish', headers: fresh.admin });
      expect(res.json()).toMatchObject({ snapshotId: 1, currencies: [] });
      const snapshot = (await fresh.app.inject({ url: '/proof/latest.json' })).json();
      expect(verifySnapshot(snapshot)).toMatchObject({ ok: true, trees: [] });
    } finally {
      await fresh.close();
    }
    // The system accounts are no users: their balances are in no tree.
    expect((await systemAccount(t.app.db, 'chain', 'BTC')).balance).toBeLessThan(0n);
  });
});
