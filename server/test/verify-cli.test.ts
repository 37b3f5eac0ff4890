/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { draw, hashDown, ROUNDS_FORMAT, seedHashOf, ticketOf, type RoundsFile } from '../../domain/faucet';
import { buildTree, LIABILITIES_FORMAT, publishTree, type PublishedSnapshot } from '../../domain/liabilities';
import { main } from '../src/ops/verify';

/** Runs `npm run verify:… -- <file>` in this process: its exit code and what it printed. */
async function verify(what: string, content: unknown): Promise<{ code: number; out: string[]; err: string[] }> {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-verify-')), 'file.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    return { code: await main([what, file]), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const snapshot = (): PublishedSnapshot => {
  const accounts = [5n, 250_000_000n, 0n].map((balance, i) => ({ account: `a${i}`, balance, nonce: new Uint8Array(32).fill(i) }));
  return { format: LIABILITIES_FORMAT, snapshotId: 7, takenAt: '2026-11-24T00:00:00.000Z', trees: [publishTree(buildTree('BTC', accounts), 8)] };
};

const rounds = (): RoundsFile => {
  const top = 'ab'.repeat(32);
  const seeds = [1, 2].map((i) => hashDown(top, 3 - i));
  return {
    format: ROUNDS_FORMAT,
    chains: [{ id: 1, anchor: hashDown(top, 3), length: 3, publishedAt: '2026-11-24T00:00:00.000Z' }],
    rounds: seeds.map((seed, i) => {
      const tickets = [ticketOf(i + 1, 'bc1qone'), ticketOf(i + 1, 'bc1qtwo')];
      const mix = `${i}`.repeat(64);
      const result = draw(seed, i + 1, tickets, mix);
      return {
        id: i + 1,
        state: 'winner_announced' as const,
        announcedAt: null,
        seedChain: { id: 1, index: i + 1 },
        seedHash: seedHashOf(seed),
        seed,
        mix: { source: 'simulated-chain', height: i + 1, hash: mix },
        entriesHash: result.entriesHash,
        tickets,
        winnerTicket: result.ticket,
      };
    }),
  };
};

describe('npm run verify:liabilities', () => {
  it('checks every tree of a published snapshot and prints the total owed', async () => {
    const { code, out } = await verify('liabilities', snapshot());
    expect(code).toBe(0);
    expect(out).toEqual([
      'Snapshot 7 taken 2026-11-24T00:00:00.000Z',
      expect.stringMatching(/^ok {4}BTC: \d+ leaves, every node the sum and hash of its children, none negative, total owed 2\.50000005 BTC$/),
      'The published trees hold.',
    ]);
  });

  it('exits 1 naming the node that does not add up', async () => {
    const forged = snapshot();
    forged.trees[0]!.levels[0]![0]![1] = String(BigInt(forged.trees[0]!.levels[0]![0]![1]) + 1n);
    const { code, out } = await verify('liabilities', forged);
    expect(code).toBe(1);
    expect(out).toContain('        level 1 node 0 is not the parent of the two nodes below it');
    expect(out[out.length - 1]).toBe('The published trees do NOT hold.');
  });

  it('exits 2 on a file it cannot read', async () => {
    expect(await verify('liabilities', 'not json')).toMatchObject({ code: 2, err: [expect.stringMatching(/is not JSON\.$/)] });
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await main(['liabilities', '/nonexistent/file.json'])).toBe(2);
      expect(await main(['other'])).toBe(2);
      expect(error.mock.calls.map(([line]) => line)).toEqual(['No file /nonexistent/file.json.', expect.stringMatching(/^Usage: npm run verify:liabilities/)]);
    } finally {
      error.mockRestore();
    }
  });
});

describe('npm run verify:faucet', () => {
  it('checks every round of the range: chain links, blocks and draws', async () => {
    const { code, out } = await verify('faucet', rounds());
    expect(code).toBe(0);
    expect(out).toEqual(['ok    round 1: chain link, seed hash, block mixed in, draw', 'ok    round 2: chain link, seed hash, block mixed in, draw', 'All 2 announced round(s) hold.']);
  });

  it('exits 1 naming a round whose seed does not link to the one before', async () => {
    const forged = rounds();
    const other = 'cd'.repeat(32);
    forged.rounds[1] = { ...forged.rounds[1]!, seed: other, seedHash: seedHashOf(other) };
    const { code, out } = await verify('faucet', forged);
    expect(code).toBe(1);
    // (With two tickets the other seed may or may not draw another winner: the link fails either way.)
    expect(out[1]).toMatch(/^FAIL {2}round 2: the published hash is not the seed the round before revealed/);
    expect(out[out.length - 1]).toBe('Some rounds do NOT hold.');
  });
});
