/**
 * @jest-environment node
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  draw,
  drawIndex,
  entriesHashOf,
  hashDown,
  maskAddress,
  rewardInCurrency,
  roundHolds,
  SALT_BYTES,
  SALT_PATTERN,
  roundSchedule,
  phaseEndsAt,
  ROUNDS_FORMAT,
  seedHashOf,
  sortTickets,
  ticketOf,
  verifyRound,
  verifyRounds,
  type PublishedRound,
  type RoundsFile,
} from '../faucet';

// Node's own crypto, independent of the @noble/hashes code the browser runs: the draw must be
// reproducible by anyone with a standard SHA-256 and HMAC.
const nodeSha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

describe('faucet draw (provably fair)', () => {
  const seed = 'a3'.repeat(32);
  const tickets = ['bc1qexample1', 'bc1qexample2', 'rExampleXrp:7', '0xExampleEth'].map((a) => ticketOf(42, a));

  it('commits to the seed with SHA-256 of its bytes', () => {
    expect(seedHashOf(seed)).toBe(nodeSha(Buffer.from(seed, 'hex')));
  });

  const block = 'b1'.repeat(32);

  it('derives tickets, the entries hash and the winner index exactly as documented, with the block hash mixed in', () => {
    expect(ticketOf(42, 'bc1qexample1')).toBe(nodeSha('42:bc1qexample1'));
    const sorted = [...tickets].sort();
    const entriesHash = nodeSha(sorted.join('\n'));
    expect(entriesHashOf(sortTickets(tickets))).toBe(entriesHash);
    const mac = createHmac('sha256', Buffer.from(seed, 'hex')).update(`42:${entriesHash}:${block}`).digest('hex');
    const index = Number(BigInt(`0x${mac}`) % BigInt(sorted.length));
    expect(drawIndex(seed, 42, entriesHash, sorted.length, block)).toBe(index);
    expect(draw(seed, 42, tickets, block)).toEqual({ entriesHash, index, ticket: sorted[index] });
    // A round drawn before blocks were mixed in signs "<round>:<entries hash>" alone.
    const legacy = createHmac('sha256', Buffer.from(seed, 'hex')).update(`42:${entriesHash}`).digest('hex');
    expect(drawIndex(seed, 42, entriesHash, sorted.length, null)).toBe(
      Number(BigInt(`0x${legacy}`) % BigInt(sorted.length)),
    );
  });

  it('hashes a seed chain down to its anchor: each seed is the SHA-256 preimage of the one before', () => {
    const top = 'c7'.repeat(32);
    const anchor = hashDown(top, 5);
    let expected = Buffer.from(top, 'hex');
    for (let i = 0; i < 5; i++) expected = createHash('sha256').update(expected).digest();
    expect(anchor).toBe(expected.toString('hex'));
    const seeds = [1, 2, 3, 4, 5].map((i) => hashDown(top, 5 - i)); // seed_1 … seed_5 = top
    expect(seeds[4]).toBe(top);
    expect(seedHashOf(seeds[0]!)).toBe(anchor);
    for (let i = 1; i < 5; i++) expect(seedHashOf(seeds[i]!)).toBe(seeds[i - 1]);
  });

  it('lets the block hash decide: the same seed and entries with another block draw independently', () => {
    const many = Array.from({ length: 50 }, (_, i) => ticketOf(9, `address-${i}`));
    const winners = new Set(
      Array.from({ length: 40 }, () => draw(seed, 9, many, randomBytes(32).toString('hex')).ticket),
    );
    expect(winners.size).toBeGreaterThan(20);
  });

  it('does not depend on the order entries arrived in', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 1e6 }),
        (addresses, roundId) => {
          const ts = addresses.map((a) => ticketOf(roundId, a));
          const result = draw(seed, roundId, ts, block);
          expect(draw(seed, roundId, [...ts].reverse(), block)).toEqual(result);
          expect(result.index).toBeGreaterThanOrEqual(0);
          expect(result.index).toBeLessThan(ts.length);
        },
      ),
    );
  });

  it('verifies an honest round and catches a broken chain link, another block, a changed entry list or a wrong winner', () => {
    const result = draw(seed, 42, tickets, block);
    const round = {
      id: 42,
      seed,
      seedHash: seedHashOf(seed),
      previousSeed: seedHashOf(seed),
      mix: block,
      entriesHash: result.entriesHash,
      tickets,
      winnerTicket: result.ticket,
    };
    expect(verifyRound(round)).toEqual({
      seedMatches: true,
      previousMatches: true,
      mixWellFormed: true,
      entriesHashMatches: true,
      winnerMatches: true,
      index: result.index,
    });
    expect(roundHolds(verifyRound(round))).toBe(true);
    expect(verifyRound({ ...round, seed: 'b4'.repeat(32) }).seedMatches).toBe(false);
    expect(verifyRound({ ...round, previousSeed: 'd5'.repeat(32) }).previousMatches).toBe(false);
    expect(verifyRound({ ...round, previousSeed: undefined }).previousMatches).toBeNull();
    expect(verifyRound({ ...round, tickets: tickets.slice(1) }).entriesHashMatches).toBe(false);
    const other = tickets.find((t) => t !== result.ticket)!;
    expect(verifyRound({ ...round, winnerTicket: other }).winnerMatches).toBe(false);
    expect(verifyRound({ ...round, seed: 'not hex' }).seedMatches).toBe(false);
    expect(verifyRound({ ...round, mix: 'not a block' })).toMatchObject({ mixWellFormed: false, winnerMatches: false });
    // Another block, same seed and entries: almost surely another winner, never a silent pass.
    const otherBlocks = Array.from({ length: 20 }, () => randomBytes(32).toString('hex')).map((mix) =>
      verifyRound({ ...round, mix }),
    );
    expect(otherBlocks.some((v) => !v.winnerMatches)).toBe(true);
  });

  it('spreads wins over all entries (no position is favoured)', () => {
    const wins = [0, 0, 0, 0];
    for (let round = 1; round <= 2000; round++)
      wins[draw(randomBytes(32).toString('hex'), round, tickets, randomBytes(32).toString('hex')).index]!++;
    for (const count of wins) expect(count).toBeGreaterThan(400); // 500 expected each
  });

  it('verifies a round without entries (no winner)', () => {
    expect(
      verifyRound({
        id: 1,
        seed,
        seedHash: seedHashOf(seed),
        mix: block,
        entriesHash: entriesHashOf([]),
        tickets: [],
        winnerTicket: null,
      }),
    ).toEqual({
      seedMatches: true,
      previousMatches: null,
      mixWellFormed: true,
      entriesHashMatches: true,
      winnerMatches: true,
      index: null,
    });
  });
});

describe('salted tickets (issue 32: the public list must not unmask players)', () => {
  const salt = () => randomBytes(SALT_BYTES).toString('hex');

  it('hashes "<roundId>:<address>:<salt>" with a salt, and "<roundId>:<address>" for an entry from before salts', () => {
    const s = salt();
    expect(s).toMatch(SALT_PATTERN);
    expect(ticketOf(42, 'bc1qexample1', s)).toBe(nodeSha(`42:bc1qexample1:${s}`));
    // An old entry (the database's salt is null) still verifies with the old formula.
    expect(ticketOf(42, 'bc1qexample1', null)).toBe(nodeSha('42:bc1qexample1'));
    expect(ticketOf(42, 'bc1qexample1', undefined)).toBe(ticketOf(42, 'bc1qexample1'));
    expect(ticketOf(42, 'bc1qexample1', s)).not.toBe(ticketOf(42, 'bc1qexample1'));
  });

  it('leaves an attacker with the published round and a list of candidate addresses (the real ones among them) no ticket to match', () => {
    const real = [
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      'DBus3bamQjgJULBJtYXpEzDWQRwF5iwxgC',
      'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe:12',
      '0x52908400098527886E0F7030069857D2E4169EE7',
    ];
    const entries = real.map((address) => ({ address, salt: salt() }));
    const published = {
      tickets: entries.map((e) => ticketOf(7, e.address, e.salt)),
      masked: entries.map((e) => maskAddress(e.address)),
    };
    // The candidates: the players' addresses hidden among others. The masks narrow the list down
    // to the real players (the attack of issue 32), but their tickets no longer give them away.
    const candidates = [
      ...Array.from({ length: 200 }, (_, i) => `bc1qcandidate${i}`),
      ...real,
      ...real.map((a) => a.toLowerCase()),
    ];
    expect(candidates.filter((a) => published.masked.includes(maskAddress(a)))).toEqual(expect.arrayContaining(real));
    const found = new Set(published.tickets);
    for (const roundId of [6, 7, 8]) {
      for (const address of candidates) {
        // The old formula, and the new one with a guessed salt (all zeros, empty).
        for (const guess of [undefined, '0'.repeat(32), ''])
          expect(found.has(ticketOf(roundId, address, guess))).toBe(false);
      }
    }
    // The player, with their own salt, finds their ticket.
    for (const e of entries) expect(found.has(ticketOf(7, e.address, e.salt))).toBe(true);
  });

  it('draws and verifies a round of salted tickets (and one mixing old and salted entries) as before', () => {
    const seed = 'e2'.repeat(32);
    const block = '3c'.repeat(32);
    const tickets = [
      ticketOf(11, 'bc1qold'),
      ...['bc1qone', 'bc1qtwo', 'bc1qthree'].map((a) => ticketOf(11, a, salt())),
    ];
    const result = draw(seed, 11, tickets, block);
    const check = verifyRound({
      id: 11,
      seed,
      seedHash: seedHashOf(seed),
      mix: block,
      entriesHash: result.entriesHash,
      tickets,
      winnerTicket: result.ticket,
    });
    expect(roundHolds(check)).toBe(true);
    expect(check.index).toBe(result.index);
  });
});

describe('a range of rounds (the downloadable history)', () => {
  /** Rounds 1..n drawn honestly from one chain of `length` seeds. */
  function history(n: number, length = 10): RoundsFile {
    const top = randomBytes(32).toString('hex');
    const rounds: PublishedRound[] = [];
    for (let id = 1; id <= n; id++) {
      const seed = hashDown(top, length - id);
      const tickets = Array.from({ length: id % 3 }, (_, i) => ticketOf(id, `address-${id}-${i}`));
      const mix = randomBytes(32).toString('hex');
      const result = tickets.length ? draw(seed, id, tickets, mix) : null;
      rounds.push({
        id,
        state: 'winner_announced',
        announcedAt: new Date(0).toISOString(),
        seedChain: { id: 1, index: id },
        seedHash: seedHashOf(seed),
        seed,
        mix: { source: 'simulated-chain', height: id, hash: mix },
        entriesHash: result?.entriesHash ?? entriesHashOf([]),
        tickets,
        winnerTicket: result?.ticket ?? null,
      });
    }
    return {
      format: ROUNDS_FORMAT,
      chains: [{ id: 1, anchor: hashDown(top, length), length, publishedAt: new Date(0).toISOString() }],
      rounds,
    };
  }

  it('verifies every round and every link of an honest history', () => {
    const file = history(6);
    const result = verifyRounds(file);
    expect(result.problems).toEqual([]);
    expect(result.rounds.map((r) => [r.id, r.ok, r.verification!.previousMatches])).toEqual(
      [1, 2, 3, 4, 5, 6].map((id) => [id, true, true]),
    );
  });

  it('names the round whose seed is not the preimage of the one before, or skips a seed, or changes its winner', () => {
    const file = history(5);
    const forged = structuredClone(file);
    // Round 3 with a seed of the operator's choosing: its own hash fits, the link to round 2 does not.
    const chosen = randomBytes(32).toString('hex');
    forged.rounds[2] = { ...forged.rounds[2]!, seed: chosen, seedHash: seedHashOf(chosen) };
    const result = verifyRounds(forged);
    expect(result.ok).toBe(false);
    // Round 4's published hash is the true seed 3, which round 3 no longer revealed: both links break.
    expect(result.rounds.filter((r) => !r.ok).map((r) => [r.id, r.problems])).toEqual([
      [3, ['the published hash is not the seed the round before revealed']],
      [4, ['the published hash is not the seed the round before revealed']],
    ]);
    const skipped = structuredClone(file);
    skipped.rounds[3]!.seedChain!.index = 6;
    expect(verifyRounds(skipped).rounds.find((r) => r.id === 4)!.problems).toContain(
      'uses seed 6 of chain 1 after seed 3: the seeds must be used in order, one per round',
    );
    const anchorless = { ...file, chains: [{ ...file.chains[0]!, anchor: 'e'.repeat(64) }] };
    expect(verifyRounds(anchorless).rounds[0]!.problems).toEqual(['the published hash is not the chain’s anchor']);
    const otherBlock = structuredClone(file);
    const withPlayers = otherBlock.rounds.find((r) => r.tickets.length === 2)!;
    withPlayers.winnerTicket = withPlayers.tickets.find((t) => t !== withPlayers.winnerTicket)!;
    expect(verifyRounds(otherBlock).rounds.find((r) => r.id === withPlayers.id)!.problems).toEqual([
      'the draw does not pick the announced winner',
    ]);
    expect(verifyRounds({ ...file, format: 'x' } as never).problems).toEqual([`not a ${ROUNDS_FORMAT} file`]);
  });
});

describe('faucet rules', () => {
  it('splits about six minutes into 18 s new, 252 s open, 18 s closed, 72 s for the result', () => {
    const start = new Date('2025-01-01T00:00:00Z');
    const s = roundSchedule(start, 360_000);
    const seconds = (d: Date) => (d.getTime() - start.getTime()) / 1000;
    expect([s.opensAt, s.closesAt, s.drawsAt, s.endsAt].map(seconds)).toEqual([18, 270, 288, 360]);
    expect(phaseEndsAt('registrations_open', s)).toEqual(s.closesAt);
    expect(phaseEndsAt('game_over', s)).toBeNull();
  });

  it('converts the two-cent reward at the rate, rounding down, never to nothing', () => {
    expect(rewardInCurrency(2n, '80000', 8)).toBe(25n); // 0.00000025 BTC
    expect(rewardInCurrency(2n, '3000', 9)).toBe(6666n); // 0.000006666 ETH
    expect(rewardInCurrency(2n, '0.19', 8)).toBe(10526315n); // 0.10526315 DOGE
    expect(rewardInCurrency(2n, '2.10', 6)).toBe(9523n); // 0.009523 XRP
    expect(rewardInCurrency(1n, '1000000000', 6)).toBe(1n);
  });

  it('masks addresses', () => {
    expect(maskAddress('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBe('bc1qar…5mdq');
    expect(maskAddress('short')).toBe('sho…');
  });
});
