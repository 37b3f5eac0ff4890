/**
 * @jest-environment node
 */
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { maskAddress, SALT_PATTERN, seedHashOf, ticketOf, verifyRound } from '#domain/faucet';
import { loadConfig } from '../src/config';
import { simulatedChain } from '../src/dev/simulated-chain';
import { advance } from '../src/modules/faucet/service';
import { faucetSettings } from '../src/modules/faucet/settings';
import { verifyLedger } from '../src/modules/ledger/service';
import { STREAMS_PER_CLIENT } from '../src/sse';
import { testApp, testUser, balanceOf, fixedRates, databaseKinds, opsCliOutput, type TestApp } from './helpers';

const rates = fixedRates({ XRP: '2.10' });

/** Every object key anywhere in a JSON value, with its path: a public answer must have no `salt` at any depth. */
function keyPaths(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => keyPaths(item, `${path}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([key, child]) => [`${path}.${key}`, ...keyPaths(child, `${path}.${key}`)]);
  return [];
}
const saltKeys = (value: unknown) => keyPaths(value).filter((p) => /\.salt$/i.test(p));

describe.each(databaseKinds())('faucet (%s)', (kind) => {
  let t: TestApp;
  let admin: Record<string, string>;
  // Everything the app logs, at every level: no line may carry an entry's salt.
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  /** Every salt handed out to a player in this suite. */
  const salts = new Set<string>();
  beforeAll(async () => {
    // Real six-minute rounds: the tests move the schedule instead of waiting for the clock.
    t = await testApp(kind, { FAUCET_BUDGET_EUR: '1.00', LOG_LEVEL: 'trace' }, { rates, logStream });
    admin = t.admin;
  });
  afterAll(async () => {
    await t.close();
    expect(salts.size).toBeGreaterThan(0);
    const log = logLines.join('');
    expect([...salts].filter((salt) => log.includes(salt))).toEqual([]);
  });

  const tick = () => advance(t.app.db, rates, t.app.faucet.settings);
  const current = async () => (await t.app.inject({ url: '/api/faucet' })).json().round;
  /** Moves the current round's whole schedule into the past, as if `ms` had gone by. */
  const elapse = (ms: number) =>
    t.app.db.execute(sql`
      update faucet_rounds set
        starts_at = starts_at - ${`${ms} milliseconds`}::interval,
        opens_at = opens_at - ${`${ms} milliseconds`}::interval,
        closes_at = closes_at - ${`${ms} milliseconds`}::interval,
        draws_at = draws_at - ${`${ms} milliseconds`}::interval,
        ends_at = ends_at - ${`${ms} milliseconds`}::interval
      where finished_at is null`);
  /** Jumps to just past a point of the current round's schedule. */
  async function jumpTo(point: 'opens_at' | 'closes_at' | 'draws_at' | 'ends_at') {
    const rows = (await t.app.db.execute(
      sql.raw(
        `select (extract(epoch from (${point} - now())) * 1000)::bigint as ms from faucet_rounds where finished_at is null`,
      ),
    )) as unknown as {
      rows: { ms: string | number }[];
    };
    const ms = Number(rows.rows[0]!.ms);
    if (ms > -1) await elapse(ms + 5);
  }
  const enter = async (headers: Record<string, string>, address: string) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/faucet/entries', headers, payload: { address } });
    if (res.statusCode === 201) salts.add(res.json().salt);
    return res;
  };
  /** The player's own entries (GET /api/faucet/me), salts included. */
  const myEntries = async (headers: Record<string, string>) => {
    const entries = (await t.app.inject({ url: '/api/faucet/me', headers })).json().entries as {
      roundId: number;
      ticket: string;
      address: string;
      salt: string | null;
    }[];
    for (const e of entries) if (e.salt) salts.add(e.salt);
    return entries;
  };
  /** Every public answer of the faucet, read anonymously or (`headers`) by a logged-in player. */
  const publicAnswers = (headers: Record<string, string> = {}) => {
    const urls = [
      '/api/faucet',
      '/api/faucet/rounds',
      '/api/faucet/rounds/1',
      '/api/faucet/rounds/export?from=1&to=10',
      '/api/faucet/seed-chains',
    ];
    return Promise.all(
      urls.map(async (url) => ({ url, body: (await t.app.inject({ url, headers })).json() as unknown })),
    );
  };
  /** No `salt` key at any depth, and no salt handed out so far as a value anywhere. */
  const expectNoSalts = (url: string, body: unknown) => {
    expect({ url, keys: saltKeys(body) }).toEqual({ url, keys: [] });
    expect({ url, salts: [...salts].filter((salt) => JSON.stringify(body).includes(salt)) }).toEqual({
      url,
      salts: [],
    });
  };

  /** A player with a verified bank account and a reception address in `currency`. */
  const player = (name: string, currency = 'BTC', verified = true) =>
    testUser(t, `${name}@muntly.test`, { verified: verified ? ['bank'] : [], address: currency });
  const balance = (headers: Record<string, string>, currency: string) => balanceOf(t, headers, currency);

  it('has no round until the ticker first runs, then a new round that publishes only the seed hash', async () => {
    expect(await current()).toBeNull();
    // Starting the ticker creates the state row (budget from FAUCET_BUDGET_EUR) and round 1; the
    // tests then drive it themselves.
    await t.app.workers.faucetTicker.start();
    await t.app.workers.faucetTicker.stop();
    const round = await current();
    expect(round).toMatchObject({
      id: 1,
      state: 'new',
      seed: null,
      winner: null,
      players: [],
      playerCount: 0,
      reward: { eur: '0.02' },
    });
    expect(round.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(round.endsAt).toBe(round.schedule.opensAt);
    expect(round.reward.amounts).toEqual({
      BTC: '0.00000025',
      ETH: '0.000006666666666666',
      XRP: '0.009523',
      BCH: '0.00004761',
      LTC: '0.00022222',
      DOGE: '0.10526315',
    });
    // About six minutes from start to end.
    expect(Date.parse(round.schedule.endsAt) - Date.parse(round.schedule.startsAt)).toBe(360_000);
    expect(await tick()).toBe(0); // nothing is due yet
  });

  let alice: Awaited<ReturnType<typeof player>>;
  let bob: Awaited<ReturnType<typeof player>>;
  let carol: Awaited<ReturnType<typeof player>>;

  it('refuses entries before registrations open', async () => {
    alice = await player('alice', 'BTC');
    bob = await player('bob', 'DOGE');
    carol = await player('carol', 'XRP');
    const res = await enter(alice.headers, alice.address);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('registrations_closed');
  });

  it('opens registrations and accepts one entry per player with their own address', async () => {
    await jumpTo('opens_at');
    expect(await tick()).toBe(1);
    expect((await current()).state).toBe('registrations_open');

    const res = await enter(alice.headers, alice.address);
    expect(res.statusCode).toBe(201);
    // The answer to her own entry carries its fresh secret salt; the ticket commits to it.
    const { salt } = res.json();
    expect(salt).toMatch(SALT_PATTERN);
    expect(res.json()).toEqual({
      roundId: 1,
      ticket: ticketOf(1, alice.address, salt),
      address: alice.address,
      currency: 'BTC',
      salt,
    });
    // Her bech32 address again, typed in capitals (BIP-173 allows it): the same address, so the same entry.
    const again = await enter(alice.headers, alice.address.toUpperCase());
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('already_entered');

    // A second address of the same player, in racing requests: the unique index lets exactly one in.
    const second = (
      await t.app.inject({
        method: 'POST',
        url: '/api/wallet/addresses',
        headers: bob.headers,
        payload: { currency: 'ETH' },
      })
    ).json().address;
    const racing = await Promise.all([
      enter(bob.headers, bob.address),
      enter(bob.headers, second),
      enter(bob.headers, bob.address),
      enter(bob.headers, second),
    ]);
    expect(racing.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
    expect(racing.filter((r) => r.statusCode === 409).every((r) => r.json().error.code === 'already_entered')).toBe(
      true,
    );
    bob.address = racing.find((r) => r.statusCode === 201)!.json().address;

    expect((await enter(carol.headers, carol.address)).statusCode).toBe(201);
  });

  it('rejects bad entries with a code and a field, never a 5xx', async () => {
    const dave = await player('dave');
    const cases: [Record<string, string>, unknown, number, string, string?][] = [
      [dave.headers, { address: alice.address }, 400, 'not_your_address', 'address'], // someone else's
      [dave.headers, { address: '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2' }, 400, 'not_your_address', 'address'], // not a Muntly address
      [dave.headers, { address: '' }, 400, 'validation_failed', 'address'],
      [dave.headers, {}, 400, 'validation_failed', 'address'],
      [dave.headers, { address: 'x'.repeat(500) }, 400, 'validation_failed', 'address'],
      [{}, { address: dave.address }, 401, 'token_missing'],
    ];
    for (const [headers, payload, status, code, field] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/faucet/entries',
        headers,
        payload: payload as object,
      });
      expect({ status: res.statusCode, code: res.json().error.code, field: res.json().error.field }).toEqual({
        status,
        code,
        field,
      });
    }
    const unverified = await player('erin', 'BTC', false);
    const res = await enter(unverified.headers, 'anything');
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('bank_verification_required');
  });

  it('shows the players with masked addresses and their tickets, but not the seed', async () => {
    const round = await current();
    expect(round.playerCount).toBe(3);
    expect(round.players.map((p: { address: string }) => p.address)).toEqual(
      [alice.address, bob.address, carol.address].map((a) => `${a.slice(0, 6)}…${a.slice(-4)}`),
    );
    const [own] = await myEntries(alice.headers);
    expect(round.players[0].ticket).toBe(ticketOf(1, alice.address, own!.salt));
    expect(JSON.stringify(round)).not.toContain(alice.address);
    expect(round.seed).toBeNull();
    expect((await t.app.inject({ url: '/api/faucet/rounds/1' })).json().round.seed).toBeNull();
  });

  it('gives each player their own salts, with which they recompute their published tickets; no public answer has a salt', async () => {
    const round = await current();
    const published = round.players.map((p: { ticket: string }) => p.ticket);
    for (const p of [alice, bob, carol]) {
      const [own] = await myEntries(p.headers);
      expect(own).toMatchObject({ roundId: 1, address: p.address, salt: expect.stringMatching(SALT_PATTERN) });
      expect(own!.ticket).toBe(ticketOf(1, p.address, own!.salt));
      expect(published).toContain(own!.ticket);
      // Without the salt, her own address does not give her ticket: nobody else's list of addresses does either.
      expect(published).not.toContain(ticketOf(1, p.address));
    }
    // A player sees her own salts only, never another player's.
    const aliceSees = JSON.stringify(await myEntries(alice.headers));
    for (const p of [bob, carol]) expect(aliceSees).not.toContain((await myEntries(p.headers))[0]!.salt!);
    // The public answers, read anonymously or by a player: no `salt` key at any depth, no salt value.
    for (const headers of [{}, alice.headers])
      for (const { url, body } of await publicAnswers(headers)) expectNoSalts(url, body);
  });

  it('an attacker with the published round and a list of candidate addresses, the players’ among them, matches no ticket', async () => {
    const round = await current();
    const tickets = new Set<string>(round.players.map((p: { ticket: string }) => p.ticket));
    const masks = new Set<string>(round.players.map((p: { address: string }) => p.address));
    // Deposit addresses seen on chain: every Muntly reception address there is, the players' included.
    const known = (await t.app.db.execute(sql`select address from reception_addresses`)) as unknown as {
      rows: { address: string }[];
    };
    const candidates = [...known.rows.map((r) => r.address), '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2'];
    expect(candidates).toEqual(expect.arrayContaining([alice.address, bob.address, carol.address]));
    // The masks narrow the list down to the players (as before), but their tickets cannot be recomputed.
    expect(candidates.filter((a) => masks.has(maskAddress(a)))).toEqual(
      expect.arrayContaining([alice.address, bob.address, carol.address]),
    );
    const matched = candidates.filter(
      (a) =>
        tickets.has(ticketOf(round.id, a)) ||
        tickets.has(ticketOf(round.id, a, '')) ||
        tickets.has(ticketOf(round.id, a, '0'.repeat(32))),
    );
    expect(matched).toEqual([]);
  });

  it('an entry from before salts (salt null) keeps its old ticket: its player still recomputes it, and it is drawn with the others', async () => {
    // As migration 0035 left the entries made before it: no salt, the ticket of "<roundId>:<address>".
    await t.app.db.execute(
      sql`update faucet_entries set salt = null, ticket = ${ticketOf(1, carol.address)} where address = ${carol.address} and round_id = 1`,
    );
    const [own] = await myEntries(carol.headers);
    expect(own).toMatchObject({ roundId: 1, salt: null, ticket: ticketOf(1, carol.address) });
    expect((await current()).players.map((p: { ticket: string }) => p.ticket)).toContain(
      ticketOf(1, carol.address, own!.salt),
    );
    for (const { url, body } of await publicAnswers()) expectNoSalts(url, body);
  });

  it('refuses entries once the registration window has passed, even before the ticker closes it', async () => {
    const frank = await player('frank');
    await jumpTo('closes_at');
    expect((await current()).state).toBe('registrations_open'); // the ticker is late…
    const late = await enter(frank.headers, frank.address);
    expect(late.statusCode).toBe(409); // …but the schedule decides
    expect(late.json().error.code).toBe('registrations_closed');
    expect(await tick()).toBe(1);
    expect((await current()).state).toBe('registrations_closed');
    expect((await enter(frank.headers, frank.address)).json().error.code).toBe('registrations_closed');
  });

  it('draws the winner, reveals the seed, pays exactly once through the ledger; the draw re-computes from the published data', async () => {
    await jumpTo('draws_at');
    expect(await tick()).toBe(1);
    expect(await tick()).toBe(0);
    const round = await current();
    expect(round.state).toBe('winner_announced');
    expect(seedHashOf(round.seed)).toBe(round.seedHash);
    // Round 1 takes the first seed of the first chain: its published hash is the chain's anchor.
    const { chains } = (await t.app.inject({ url: '/api/faucet/seed-chains' })).json();
    expect(chains).toEqual([{ id: 1, anchor: round.seedHash, length: 10_000, publishedAt: expect.any(String) }]);
    expect(round.seedChain).toEqual({ id: 1, index: 1, anchor: round.seedHash, previousRoundId: null });
    // The simulated chain's first block after registrations closed was mixed into the draw.
    expect(round.mix).toEqual({ source: 'simulated-chain', height: 1, hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const check = verifyRound({
      id: round.id,
      seed: round.seed,
      seedHash: round.seedHash,
      previousSeed: round.seedChain.anchor,
      mix: round.mix.hash,
      entriesHash: round.entriesHash,
      tickets: round.players.map((p: { ticket: string }) => p.ticket),
      winnerTicket: round.winner.ticket,
    });
    expect(check).toMatchObject({
      seedMatches: true,
      previousMatches: true,
      mixWellFormed: true,
      entriesHashMatches: true,
      winnerMatches: true,
    });

    const players = [alice, bob, carol];
    const owned = await Promise.all(players.map(async (p) => ({ p, entry: (await myEntries(p.headers))[0]! })));
    // Each player finds the winning ticket, or not, from their own address and salt alone.
    const winner = owned.find(({ p, entry }) => ticketOf(1, p.address, entry.salt) === round.winner.ticket)!.p;
    expect(round.winner.amount).toBe(round.reward.amounts[round.winner.currency]);
    expect(await balance(winner.headers, round.winner.currency)).toBe(round.winner.amount);
    for (const p of players.filter((p) => p !== winner)) {
      const mine = (await t.app.inject({ url: '/api/faucet/me', headers: p.headers })).json().entries;
      expect(mine[0]).toMatchObject({ roundId: 1, result: 'lost', amount: null });
    }
    const won = (await t.app.inject({ url: '/api/faucet/me', headers: winner.headers })).json().entries;
    expect(won[0]).toMatchObject({
      roundId: 1,
      result: 'won',
      amount: round.winner.amount,
      currency: round.winner.currency,
    });
    const tx = (await t.app.inject({ url: '/api/wallet/transactions', headers: winner.headers })).json().transactions;
    expect(tx[0]).toMatchObject({ type: 'faucet', direction: 'in', amount: round.winner.amount });

    const transfers = (await t.app.db.execute(
      sql`select id, code from ledger_transfers where code = 'faucet'`,
    )) as unknown as { rows: { id: string }[] };
    expect(transfers.rows.map((r) => r.id)).toEqual(['faucet:1']);
    expect((await verifyLedger(t.app.db)).every((c) => c.ok)).toBe(true);
    const status = (await t.app.inject({ url: '/api/ops/faucet', headers: admin })).json();
    expect(status).toMatchObject({ paused: false, budgetEur: '0.98' });
    // Announced, with its winner and in the history and export: still no salt in public.
    for (const { url, body } of await publicAnswers()) expectNoSalts(url, body);
  });

  it('starts the next round after the result; past rounds stay readable', async () => {
    await jumpTo('ends_at');
    expect(await tick()).toBe(1);
    const round = await current();
    expect(round).toMatchObject({ id: 2, state: 'new', playerCount: 0 });
    const first = (await t.app.inject({ url: '/api/faucet/rounds/1' })).json().round;
    expect(first).toMatchObject({ id: 1, state: 'winner_announced', playerCount: 3 });
    expect(first.seed).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.app.inject({ url: '/api/faucet/rounds/99' })).statusCode).toBe(404);
    const bad = await t.app.inject({ url: '/api/faucet/rounds/abc' });
    expect([bad.statusCode, bad.json().error.code]).toEqual([400, 'validation_failed']);
  });

  it('catches up after downtime: a ticker back after a whole round walks it through every phase', async () => {
    await elapse(400_000);
    expect(await tick()).toBe(4); // open, closed, announced (nobody played: no winner, no credit), next round
    const second = (await t.app.inject({ url: '/api/faucet/rounds/2' })).json().round;
    expect(second).toMatchObject({ state: 'winner_announced', winner: null, playerCount: 0 });
    expect((await current()).id).toBe(3);
  });

  it('pause: the current round is played out, then GAME OVER; resume starts a new round', async () => {
    const paused = await t.app.inject({ method: 'POST', url: '/api/ops/faucet/pause', headers: admin });
    expect(paused.json()).toMatchObject({ paused: true, round: { id: 3, state: 'new' } });
    expect((await current()).paused).toBe(true);
    await jumpTo('opens_at');
    await tick();
    expect((await enter(alice.headers, alice.address)).statusCode).toBe(201); // the promised round still runs
    await jumpTo('ends_at');
    expect(await tick()).toBe(3); // closed, announced, game over
    const over = await current();
    expect(over).toMatchObject({ id: 4, state: 'game_over', gameOverReason: 'paused', endsAt: null, seedHash: null });
    const refused = await enter(alice.headers, alice.address);
    expect([refused.statusCode, refused.json().error.code]).toEqual([409, 'faucet_game_over']);
    expect(await tick()).toBe(0);

    const resumed = await t.app.inject({ method: 'POST', url: '/api/ops/faucet/resume', headers: admin });
    expect(resumed.json().paused).toBe(false);
    expect(await tick()).toBe(1);
    expect(await current()).toMatchObject({ id: 5, state: 'new' });
  });

  it('GAME OVER when the budget is spent; funding starts the faucet again', async () => {
    await t.app.db.execute(sql`update faucet_state set budget_eur_minor = 2`); // one reward left
    await jumpTo('opens_at');
    await tick();
    expect((await enter(bob.headers, bob.address)).statusCode).toBe(201);
    await jumpTo('ends_at');
    await tick();
    expect(await current()).toMatchObject({ state: 'game_over', gameOverReason: 'budget' });
    expect((await t.app.inject({ url: '/api/ops/faucet', headers: admin })).json().budgetEur).toBe('0.00');

    for (const eur of ['abc', '0', '-1', '1.234', '']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/ops/faucet/fund', headers: admin, payload: { eur } });
      expect({ eur, status: res.statusCode, code: res.json().error.code, field: res.json().error.field }).toEqual({
        eur,
        status: 400,
        code: 'invalid_amount',
        field: 'eur',
      });
    }
    const user = await t.app.inject({
      method: 'POST',
      url: '/api/ops/faucet/fund',
      headers: alice.headers,
      payload: { eur: '5' },
    });
    expect(user.statusCode).toBe(403);
    const funded = await t.app.inject({
      method: 'POST',
      url: '/api/ops/faucet/fund',
      headers: admin,
      payload: { eur: '0.50' },
    });
    expect(funded.json()).toMatchObject({ budgetEur: '0.50', paused: false });
    await tick();
    expect((await current()).state).toBe('new');
    expect((await verifyLedger(t.app.db)).every((c) => c.ok)).toBe(true);
    const credits = (await t.app.db.execute(
      sql`select count(*)::int as n from ledger_transfers where code = 'faucet'`,
    )) as unknown as { rows: { n: number }[] };
    expect(credits.rows[0]!.n).toBe(3); // rounds 1, 3 and 5 had players
  });

  it('streams the round live (SSE): on connect, and again when a player enters', async () => {
    await jumpTo('opens_at');
    await tick();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const abort = new AbortController();
    const response = await fetch(`${address}/api/faucet/events`, { signal: abort.signal });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    const nextRound = async () => {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = /^data: (.*)$/m.exec(frame);
          if (/^event: round$/m.test(frame) && data) return JSON.parse(data[1]!).round;
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    };
    const first = await nextRound();
    expect(first).toMatchObject({ state: 'registrations_open', playerCount: 0 });
    expect((await enter(carol.headers, carol.address)).statusCode).toBe(201);
    const second = await nextRound();
    expect(second).toMatchObject({ id: first.id, playerCount: 1 });
    // The live stream is public too: the ticket, never its salt.
    expectNoSalts('/api/faucet/events', second);
    await jumpTo('closes_at');
    await tick(); // as another replica's ticker would: this replica notices on its next poll
    expect(await nextRound()).toMatchObject({ id: first.id, state: 'registrations_closed' });
    abort.abort();
    expect(t.app.faucet.events.listeners).toBeLessThanOrEqual(1);
  });

  it(`holds at most ${STREAMS_PER_CLIENT} open streams per client address; a closed one frees its place`, async () => {
    const address = t.app.server.address() as { port: number };
    const url = `http://127.0.0.1:${address.port}/api/faucet/events`;
    const aborts = Array.from({ length: STREAMS_PER_CLIENT }, () => new AbortController());
    const open = await Promise.all(aborts.map((abort) => fetch(url, { signal: abort.signal })));
    expect(open.map((r) => r.status)).toEqual(aborts.map(() => 200));
    const refused = await fetch(url);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('try_again_soon');
    aborts[0]!.abort();
    // The server notices the closed socket on its own schedule.
    let again = 429;
    const retry = new AbortController();
    for (let i = 0; i < 50 && again === 429; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      const response = await fetch(url, { signal: retry.signal });
      again = response.status;
      if (again === 429) await response.body?.cancel();
    }
    expect(again).toBe(200);
    retry.abort();
    for (const abort of aborts) abort.abort();
  });

  it('npm run ops -- faucet status|pause|resume|fund talks to the running server', async () => {
    const address = t.app.server.address() as { port: number };
    const printed = await opsCliOutput(`http://127.0.0.1:${address.port}`, admin, async (run) => {
      await run(['faucet', 'status']);
      await run(['faucet', 'pause']);
      await run(['faucet', 'fund', '1.50']);
      await run(['faucet', 'resume']);
      await expect(run(['faucet', 'fund'])).rejects.toThrow('Usage: faucet fund <eur>');
      await expect(run(['faucet', 'fund', 'lots'])).rejects.toThrow('400 invalid_amount');
      await expect(run(['faucet', 'stop'])).rejects.toThrow('Usage: faucet status|pause|resume|fund <eur>');
    });
    expect(printed).toEqual([
      expect.stringMatching(/^Faucet running, budget 0\.50 EUR, round \d+ registrations_closed\.$/),
      expect.stringMatching(/^Faucet paused \(GAME OVER after the current round\), budget 0\.50 EUR/),
      expect.stringMatching(/^Faucet paused .*, budget 2\.00 EUR/),
      expect.stringMatching(/^Faucet running, budget 2\.00 EUR/),
    ]);
  });
});

describe('faucet settings', () => {
  it('reads round length, reward and starting budget, and stops on a bad value naming it', () => {
    const chain = simulatedChain();
    expect(faucetSettings(loadConfig({}), chain)).toEqual({
      roundMs: 360_000,
      rewardEurMinor: 2n,
      initialBudgetEurMinor: 1000n,
      seedChainLength: 10_000,
      chain,
    });
    expect(
      faucetSettings(
        loadConfig({
          FAUCET_ROUND_SECONDS: '0.5',
          FAUCET_REWARD_EUR: '0.05',
          FAUCET_BUDGET_EUR: '3',
          FAUCET_SEED_CHAIN_LENGTH: '3',
        }),
        chain,
      ),
    ).toEqual({
      roundMs: 500,
      rewardEurMinor: 5n,
      initialBudgetEurMinor: 300n,
      seedChainLength: 3,
      chain,
    });
    for (const [name, value] of [
      ['FAUCET_ROUND_SECONDS', 'abc'],
      ['FAUCET_ROUND_SECONDS', '0'],
      ['FAUCET_REWARD_EUR', '0'],
      ['FAUCET_REWARD_EUR', '0.001'],
      ['FAUCET_BUDGET_EUR', '-1'],
      ['FAUCET_SEED_CHAIN_LENGTH', '0'],
    ]) {
      expect(() => loadConfig({ [name!]: value })).toThrow(name);
    }
  });
});
