/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { draw, hashDown, ROUNDS_FORMAT, seedHashOf, ticketOf, type RoundsFile } from '#domain/faucet';
import {
  buildTree,
  LIABILITIES_FORMAT,
  ownerCommitment,
  proofPath,
  publishTree,
  type PublishedSnapshot,
} from '#domain/liabilities';
import { main } from '../src/ops/verify';
import type { MyProof } from '#domain/contracts/liabilities';

/** Runs `npm run verify:… -- <file>` in this process: its exit code and what it printed. */
async function verify(
  what: string,
  content: unknown,
  proof?: unknown,
): Promise<{ code: number; out: string[]; err: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-verify-'));
  const file = path.join(dir, 'file.json');
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  const proofFile = path.join(dir, 'proof.json');
  if (proof) fs.writeFileSync(proofFile, JSON.stringify(proof));
  const out: string[] = [];
  const err: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((line: string) => void out.push(line));
  const error = jest.spyOn(console, 'error').mockImplementation((line: string) => void err.push(line));
  try {
    return { code: await main(proof ? [what, file, proofFile] : [what, file]), out, err };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

const nonce = new Uint8Array(32).fill(9);
const owner = '6f1c0a52-93a4-4c1e-9f1e-0d6b7f1f5a11';

/** A snapshot of three owners in BTC, and the proof the first of them would save from /wallet/proof/. */
const published = (): { snapshot: PublishedSnapshot; proof: MyProof } => {
  const owners = [
    { owner, amount: 250_000_000n, commitment: ownerCommitment(owner, nonce) },
    { owner: 'other', amount: 5n, commitment: ownerCommitment('other', new Uint8Array(32).fill(1)) },
    { owner: 'order:42', amount: 7n, commitment: ownerCommitment('order:42', new Uint8Array(32).fill(2)) },
  ];
  const built = buildTree('BTC', owners);
  const tree = publishTree(built, 8);
  const snapshot: PublishedSnapshot = {
    format: LIABILITIES_FORMAT,
    snapshotId: 7,
    takenAt: '2026-11-24T00:00:00.000Z',
    trees: [tree],
    reserves: { source: 'test', currencies: [{ currency: 'BTC', height: 812, held: '2.6' }] },
  };
  const leaves = built.leavesOf
    .get(owner)!
    .map((leaf) => ({ index: leaf.index, value: leaf.value.toString(), path: proofPath(built, leaf.index) }));
  const proof: MyProof = {
    snapshotId: 7,
    takenAt: snapshot.takenAt,
    owner,
    nonce: Buffer.from(nonce).toString('hex'),
    currencies: [
      {
        currency: 'BTC',
        decimals: 8,
        balance: '2.5',
        root: tree.root,
        leafCount: tree.leafCount,
        file: '/proof/7/BTC.json',
        leaves,
      },
    ],
  };
  return { snapshot, proof };
};
const snapshot = () => published().snapshot;

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
  it('checks the statement of a published snapshot and prints its digest, what was owed and what was held', async () => {
    const { code, out } = await verify('liabilities', snapshot());
    expect(code).toBe(0);
    expect(out).toEqual([
      'Snapshot 7 taken 2026-11-24T00:00:00.000Z',
      expect.stringMatching(/^ok {4}digest [0-9a-f]{64}$/),
      'ok    BTC: owed 2.50000012 BTC, held 2.6 at block 812 (4096 leaves, padded)',
      'The snapshot holds.',
    ]);
  });

  it('checks an owner’s saved proof: every leaf under the published root', async () => {
    const { snapshot: s, proof } = published();
    const { code, out } = await verify('liabilities', s, proof);
    expect(code).toBe(0);
    expect(out).toContain(
      `ok    BTC: ${proof.currencies[0]!.leaves.length} leaf(s) of ${owner} under the root, owed 2.50000000`,
    );
  });

  it('exits 1 when a leaf of the proof was changed, or the proof is someone else’s', async () => {
    const { snapshot: s, proof } = published();
    const leaf = proof.currencies[0]!.leaves[0]!;
    const raised = {
      ...proof,
      currencies: [
        {
          ...proof.currencies[0]!,
          leaves: [{ ...leaf, value: String(BigInt(leaf.value) + 1n) }, ...proof.currencies[0]!.leaves.slice(1)],
        },
      ],
    };
    const forged = await verify('liabilities', s, raised);
    expect(forged.code).toBe(1);
    expect(forged.out).toContain(`        leaf ${leaf.index}: the path does not lead to the published root`);
    expect(forged.out[forged.out.length - 1]).toBe('The snapshot does NOT hold.');
    // The same leaves claimed by another owner: their commitment is not in the leaves.
    expect((await verify('liabilities', s, { ...proof, owner: 'someone-else' })).code).toBe(1);
  });

  it('exits 1 on a statement that is not the format: a tree size that is not padded', async () => {
    const forged = snapshot();
    forged.trees[0]!.leafCount = 3;
    const { code, out } = await verify('liabilities', forged);
    expect(code).toBe(1);
    expect(out).toContain('        BTC: 3 leaves is not a power of two of at least 4096');
  });

  it('exits 2 on a file it cannot read', async () => {
    expect(await verify('liabilities', 'not json')).toMatchObject({
      code: 2,
      err: [expect.stringMatching(/is not JSON\.$/)],
    });
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await main(['liabilities', '/nonexistent/file.json'])).toBe(2);
      expect(await main(['other'])).toBe(2);
      expect(error.mock.calls.map(([line]) => line)).toEqual([
        'No file /nonexistent/file.json.',
        expect.stringMatching(/^Usage: npm run verify:liabilities/),
      ]);
    } finally {
      error.mockRestore();
    }
  });
});

describe('npm run verify:faucet', () => {
  it('checks every round of the range: chain links, blocks and draws', async () => {
    const { code, out } = await verify('faucet', rounds());
    expect(code).toBe(0);
    expect(out).toEqual([
      'ok    round 1: chain link, seed hash, block mixed in, draw',
      'ok    round 2: chain link, seed hash, block mixed in, draw',
      'All 2 announced round(s) hold.',
    ]);
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
