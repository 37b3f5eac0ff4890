/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { hashDown, ROUNDS_FORMAT, seedHashOf, verifyRounds, type RoundsFile } from '#domain/faucet';
import { simulatedBlockHash, simulatedChain } from '../src/dev/simulated-chain';
import { esploraChain } from '../src/modules/chain/esplora';
import { advance } from '../src/modules/faucet/service';
import { databaseKinds, fixedRates, testApp, testUser, type TestApp } from './helpers';
import type { Block, Chain } from '../src/modules/chain/service';

const rates = fixedRates();

/** Moves the current round's whole schedule into the past, as if it had all gone by. */
const elapse = (t: TestApp) =>
  t.app.db.execute(sql`
    update faucet_rounds set
      starts_at = starts_at - interval '1 hour', opens_at = opens_at - interval '1 hour', closes_at = closes_at - interval '1 hour',
      draws_at = draws_at - interval '1 hour', ends_at = ends_at - interval '1 hour'
    where finished_at is null`);

describe.each(databaseKinds())('faucet seed chains, blocks and round history (%s)', (kind) => {
  let t: TestApp;
  let players: Awaited<ReturnType<typeof testUser>>[];
  const tick = () => advance(t.app.db, rates, t.app.faucet.settings);
  const enterAll = async (who: typeof players) => {
    for (const p of who)
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/faucet/entries',
            headers: p.headers,
            payload: { address: p.address },
          })
        ).statusCode,
      ).toBe(201);
  };
  /** Plays the current round to its announcement with `who` entering, then starts the next one. */
  async function playRound(who: typeof players) {
    await elapse(t);
    await t.app.db.execute(
      sql`update faucet_rounds set opens_at = now() - interval '1 second', closes_at = now() + interval '1 hour' where finished_at is null`,
    );
    await tick(); // open
    await enterAll(who);
    await elapse(t);
    await tick(); // closed, drawn, next round
    await tick();
  }

  beforeAll(async () => {
    // Chains of three seeds: the third round uses the first chain's last seed.
    t = await testApp(kind, { FAUCET_SEED_CHAIN_LENGTH: '3', FAUCET_BUDGET_EUR: '5.00' }, { rates });
    await t.app.workers.faucetTicker.start();
    await t.app.workers.faucetTicker.stop();
    players = await Promise.all(
      ['ann', 'ben', 'cid'].map((name, i) =>
        testUser(t, `${name}@muntly.test`, { address: ['BTC', 'DOGE', 'LTC'][i] }),
      ),
    );
    for (let round = 0; round < 5; round++) await playRound(players.slice(0, (round % 3) + 1));
  });
  afterAll(() => t.close());

  it('takes the seeds of a chain published in advance in order, and publishes the next chain a round before it is needed', async () => {
    const { chains } = (await t.app.inject({ url: '/api/faucet/seed-chains' })).json();
    // Round 6 (running) took chain 2's last seed: chain 3 is already out.
    expect(chains.map((c: { id: number; length: number }) => [c.id, c.length])).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const rounds = (await t.app.db.execute(
      sql`select id, seed_chain_id, seed_index, seed, seed_hash, announced_at from faucet_rounds order by id`,
    )) as unknown as {
      rows: {
        id: number;
        seed_chain_id: number;
        seed_index: number;
        seed: string;
        seed_hash: string;
        announced_at: Date | null;
      }[];
    };
    expect(rounds.rows.map((r) => [r.id, r.seed_chain_id, r.seed_index])).toEqual([
      [1, 1, 1],
      [2, 1, 2],
      [3, 1, 3],
      [4, 2, 1],
      [5, 2, 2],
      [6, 2, 3],
    ]);
    // Every seed is the SHA-256 preimage of the one before it; the first of a chain of its anchor.
    const [first, second] = chains;
    expect(rounds.rows[0]!.seed_hash).toBe(first.anchor);
    expect(seedHashOf(rounds.rows[1]!.seed)).toBe(rounds.rows[0]!.seed);
    expect(hashDown(rounds.rows[2]!.seed, 3)).toBe(first.anchor);
    expect(rounds.rows[3]!.seed_hash).toBe(second.anchor);
    // The second chain was public while round 3 still ran (it came out when round 3 took chain 1's
    // last seed), so before round 4, its first user, started.
    expect(Date.parse(second.publishedAt)).toBeLessThan(new Date(rounds.rows[2]!.announced_at!).getTime());
    // The top seed never leaves the server.
    expect(JSON.stringify(chains)).not.toMatch(/top/i);
  });

  it('mixes in the simulated chain’s first block after registrations closed, a new block each draw', async () => {
    const { rounds } = (await t.app.inject({ url: '/api/faucet/rounds?limit=50' })).json();
    expect(rounds.map((r: { id: number }) => r.id)).toEqual([5, 4, 3, 2, 1]);
    const heights = rounds.map((r: { mix: { height: number } }) => r.mix.height);
    expect(heights).toEqual([5, 4, 3, 2, 1]);
    const blocks = (await t.app.db.execute(
      sql`select height, hash, prev_hash, nonce from simulated_chain_blocks order by height`,
    )) as unknown as {
      rows: { height: number; hash: string; prev_hash: string; nonce: string }[];
    };
    for (const r of rounds)
      expect(r.mix).toEqual({ source: 'simulated-chain', height: r.mix.height, hash: blocks.rows[r.mix.height]!.hash });
    // Each block's hash is the documented hash of its predecessor, its height and a fresh nonce.
    for (const b of blocks.rows.slice(1))
      expect(b.hash).toBe(simulatedBlockHash(blocks.rows[b.height - 1]!.hash, b.height, b.nonce));
  });

  it('pages the round history, newest first, with everything the browser checks', async () => {
    const page = (await t.app.inject({ url: '/api/faucet/rounds?limit=2' })).json();
    expect(page.rounds.map((r: { id: number }) => r.id)).toEqual([5, 4]);
    expect(page.next).toBe(4);
    const older = (await t.app.inject({ url: `/api/faucet/rounds?limit=2&before=${page.next}` })).json();
    expect(older.rounds.map((r: { id: number }) => r.id)).toEqual([3, 2]);
    const last = (await t.app.inject({ url: '/api/faucet/rounds?limit=2&before=2' })).json();
    expect([last.rounds.map((r: { id: number }) => r.id), last.next]).toEqual([[1], null]);
    const [five] = page.rounds;
    expect(five).toMatchObject({
      state: 'winner_announced',
      seedChain: { id: 2, index: 2, previousRoundId: 4 },
      playerCount: 2,
    });
    expect(five.seedHash).toBe(page.rounds[1].seed);
    for (const query of ['limit=0', 'limit=500', 'before=abc']) {
      expect((await t.app.inject({ url: `/api/faucet/rounds?${query}` })).json().error.code).toBe('validation_failed');
    }
  });

  it('exports a range of rounds as one file that verifies round by round and link by link; a forged round is named', async () => {
    const res = await t.app.inject({ url: '/api/faucet/rounds/export?from=1&to=6' });
    expect(res.headers['content-disposition']).toBe('attachment; filename="muntly-faucet-rounds-1-6.json"');
    const file = res.json() as RoundsFile;
    expect(file.format).toBe(ROUNDS_FORMAT);
    expect(file.rounds.map((r) => r.state)).toEqual([
      'winner_announced',
      'winner_announced',
      'winner_announced',
      'winner_announced',
      'winner_announced',
      'new',
    ]);
    expect(file.rounds[5]!.seed).toBeNull(); // the running round keeps its seed
    const result = verifyRounds(file);
    expect(result).toMatchObject({ ok: true, problems: [] });
    expect(result.rounds.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    const forged = structuredClone(file);
    forged.rounds[1]!.winnerTicket = forged.rounds[1]!.tickets.find(
      (ticket) => ticket !== forged.rounds[1]!.winnerTicket,
    )!;
    expect(
      verifyRounds(forged)
        .rounds.filter((r) => !r.ok)
        .map((r) => [r.id, r.problems]),
    ).toEqual([[2, ['the draw does not pick the announced winner']]]);
    for (const query of ['from=5&to=1', 'from=1&to=600', 'from=x&to=2', 'from=1']) {
      const bad = await t.app.inject({ url: `/api/faucet/rounds/export?${query}` });
      expect([query, bad.statusCode, bad.json().error.code]).toEqual([query, 400, 'validation_failed']);
    }
  });
});

describe('the draw waits for its block', () => {
  let t: TestApp;
  let blocks: Map<number, string>;
  beforeAll(async () => {
    blocks = new Map([[100, 'aa'.repeat(32)]]);
    // A chain whose next block is not there until the test says so, like a real one.
    const chain: Chain = {
      name: 'bitcoin',
      tip: async () => {
        const height = Math.max(...blocks.keys());
        return { height, hash: blocks.get(height)! };
      },
      block: async (_db, height): Promise<Block | null> =>
        blocks.has(height) ? { height, hash: blocks.get(height)! } : null,
      balances: async () => null,
      received: async () => undefined,
    };
    t = await testApp('pglite', {}, { rates, chain });
  });
  afterAll(() => t.close());

  it('records the height after the tip when registrations close, draws only once that block exists, with its hash', async () => {
    await t.app.workers.faucetTicker.start();
    await t.app.workers.faucetTicker.stop();
    const player = await testUser(t, 'wait@muntly.test', { address: 'BTC' });
    const tick = () => advance(t.app.db, rates, t.app.faucet.settings);
    await elapse(t);
    await t.app.db.execute(
      sql`update faucet_rounds set opens_at = now() - interval '1 second', closes_at = now() + interval '1 hour' where finished_at is null`,
    );
    await tick();
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/faucet/entries',
          headers: player.headers,
          payload: { address: player.address },
        })
      ).statusCode,
    ).toBe(201);
    await elapse(t);
    expect(await tick()).toBe(1); // closed; the draw is due but block 101 is not mined yet
    expect(await tick()).toBe(0);
    let round = (await t.app.inject({ url: '/api/faucet' })).json().round;
    expect(round).toMatchObject({
      state: 'registrations_closed',
      mix: { source: 'bitcoin', height: 101, hash: null },
      seed: null,
    });
    blocks.set(101, 'bb'.repeat(32));
    expect(await tick()).toBe(2); // drawn with block 101, then the next round
    round = (await t.app.inject({ url: '/api/faucet/rounds/1' })).json().round;
    expect(round).toMatchObject({
      state: 'winner_announced',
      mix: { source: 'bitcoin', height: 101, hash: 'bb'.repeat(32) },
      winner: { ticket: expect.any(String) },
    });
  });
});

describe('Esplora blocks (CHAIN_BLOCKS_URL)', () => {
  const hash = (c: string) => c.repeat(64);
  const explorer = (tip: number) => {
    const calls: string[] = [];
    const fetch = async (url: string) => {
      calls.push(url);
      const path = new URL(url).pathname.replace(/^\/api/, '');
      const height = Number(path.split('/').pop());
      if (path === '/blocks/tip/height') return { ok: true, status: 200, text: async () => `${tip}\n` };
      if (path.startsWith('/block-height/') && height <= tip)
        return { ok: true, status: 200, text: async () => hash(String(height % 10)) };
      if (path.startsWith('/block-height/')) return { ok: false, status: 404, text: async () => 'Block not found' };
      return { ok: false, status: 500, text: async () => 'down' };
    };
    return { chain: esploraChain({ baseUrl: 'https://blockstream.example/api/', fetch }), calls };
  };
  const db = undefined as never;

  it('reads the tip and a block by height, null until it is mined', async () => {
    const { chain, calls } = explorer(870_001);
    expect(await chain.tip(db)).toEqual({ height: 870_001, hash: hash('1') });
    expect(await chain.block(db, 870_001)).toEqual({ height: 870_001, hash: hash('1') });
    expect(await chain.block(db, 870_002)).toBeNull();
    expect(calls[0]).toBe('https://blockstream.example/api/blocks/tip/height');
    expect(await chain.balances(db, 'BTC', ['bc1q'])).toBeNull();
  });

  it('throws when the explorer fails, so the ticker tries again', async () => {
    const chain = esploraChain({
      baseUrl: 'https://x.example',
      fetch: async () => ({ ok: false, status: 503, text: async () => '' }),
    });
    await expect(chain.tip(db)).rejects.toThrow('block explorer answered 503');
  });

  it('the simulated chain mines only the block after its tip', async () => {
    const t = await testApp('pglite');
    try {
      const chain = simulatedChain();
      const genesis = await chain.tip(t.app.db);
      expect(genesis.height).toBe(0);
      expect(await chain.block(t.app.db, 2)).toBeNull();
      const [one, again] = await Promise.all([chain.block(t.app.db, 1), chain.block(t.app.db, 1)]);
      expect(one).toEqual(again);
      expect(await chain.tip(t.app.db)).toEqual(one);
    } finally {
      await t.close();
    }
  });
});
