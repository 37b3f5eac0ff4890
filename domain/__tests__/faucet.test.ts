/**
 * @jest-environment node
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { draw, drawIndex, entriesHashOf, maskAddress, rewardInCurrency, roundSchedule, phaseEndsAt, seedHashOf, sortTickets, ticketOf, verifyRound } from '../faucet';

// Node's own crypto, independent of the @noble/hashes code the browser runs: the draw must be
// reproducible by anyone with a standard SHA-256 and HMAC.
const nodeSha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

describe('faucet draw (provably fair)', () => {
  const seed = 'a3'.repeat(32);
  const tickets = ['bc1qexample1', 'bc1qexample2', 'rExampleXrp:7', '0xExampleEth'].map((a) => ticketOf(42, a));

  it('commits to the seed with SHA-256 of its bytes', () => {
    expect(seedHashOf(seed)).toBe(nodeSha(Buffer.from(seed, 'hex')));
  });

  it('derives tickets, the entries hash and the winner index exactly as documented', () => {
    expect(ticketOf(42, 'bc1qexample1')).toBe(nodeSha('42:bc1qexample1'));
    const sorted = [...tickets].sort();
    const entriesHash = nodeSha(sorted.join('\n'));
    expect(entriesHashOf(sortTickets(tickets))).toBe(entriesHash);
    const mac = createHmac('sha256', Buffer.from(seed, 'hex')).update(`42:${entriesHash}`).digest('hex');
    const index = Number(BigInt(`0x${mac}`) % BigInt(sorted.length));
    expect(drawIndex(seed, 42, entriesHash, sorted.length)).toBe(index);
    expect(draw(seed, 42, tickets)).toEqual({ entriesHash, index, ticket: sorted[index] });
  });

  it('does not depend on the order entries arrived in', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 1e6 }), (addresses, roundId) => {
        const ts = addresses.map((a) => ticketOf(roundId, a));
        const result = draw(seed, roundId, ts);
        expect(draw(seed, roundId, [...ts].reverse())).toEqual(result);
        expect(result.index).toBeGreaterThanOrEqual(0);
        expect(result.index).toBeLessThan(ts.length);
      }),
    );
  });

  it('verifies an honest round and catches a wrong seed, a changed entry list or a wrong winner', () => {
    const result = draw(seed, 42, tickets);
    const round = { id: 42, seed, seedHash: seedHashOf(seed), entriesHash: result.entriesHash, tickets, winnerTicket: result.ticket };
    expect(verifyRound(round)).toEqual({ seedMatches: true, entriesHashMatches: true, winnerMatches: true, index: result.index });
    expect(verifyRound({ ...round, seed: 'b4'.repeat(32) }).seedMatches).toBe(false);
    expect(verifyRound({ ...round, tickets: tickets.slice(1) }).entriesHashMatches).toBe(false);
    const other = tickets.find((t) => t !== result.ticket)!;
    expect(verifyRound({ ...round, winnerTicket: other }).winnerMatches).toBe(false);
    expect(verifyRound({ ...round, seed: 'not hex' }).seedMatches).toBe(false);
  });

  it('spreads wins over all entries (no position is favoured)', () => {
    const wins = [0, 0, 0, 0];
    for (let round = 1; round <= 2000; round++) wins[draw(randomBytes(32).toString('hex'), round, tickets).index]!++;
    for (const count of wins) expect(count).toBeGreaterThan(400); // 500 expected each
  });

  it('verifies a round without entries (no winner)', () => {
    expect(verifyRound({ id: 1, seed, seedHash: seedHashOf(seed), entriesHash: entriesHashOf([]), tickets: [], winnerTicket: null })).toEqual({
      seedMatches: true,
      entriesHashMatches: true,
      winnerMatches: true,
      index: null,
    });
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
