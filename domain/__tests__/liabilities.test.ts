/**
 * @jest-environment node
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import {
  buildTree,
  leafHash,
  LIABILITIES_FORMAT,
  MAX_LEAVES,
  MIN_LEAF_COUNT,
  MIN_LEAVES,
  ownerCommitment,
  placedLeaves,
  paddedLeafCount,
  parentOf,
  paddingNode,
  proofPath,
  publishTree,
  snapshotDigest,
  snapshotStatement,
  splitBalance,
  verifyInclusion,
  verifySnapshot,
  type PublishedSnapshot,
} from '../liabilities';

// Node's own SHA-256, independent of the @noble/hashes code the browser runs: anyone with a
// standard SHA-256 must get the same bytes from the documented encoding (docs/proof-format.md).
const nodeSha = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const u128 = (value: bigint) => Buffer.from(value.toString(16).padStart(32, '0'), 'hex');

const ownerOf = (owner: string, amount: bigint, nonce = new Uint8Array(randomBytes(32))) => ({
  owner,
  amount,
  nonce,
  commitment: ownerCommitment(owner, nonce),
});
const hexNonce = (o: { nonce: Uint8Array }) => hex(o.nonce);

/** An owner's proof of one currency as GET /api/wallet/proof gives it. */
function proofOf(built: ReturnType<typeof buildTree>, owner: string) {
  const tree = publishTree(built, 8);
  const leaves = built.leavesOf
    .get(owner)!
    .map((leaf) => ({ index: leaf.index, value: leaf.value.toString(), path: proofPath(built, leaf.index) }));
  return { tree, proof: { currency: built.currency, root: tree.root, leafCount: tree.leafCount, leaves } };
}

describe('the byte encoding of format 2 (docs/proof-format.md)', () => {
  it('hashes owner commitments, leaves and nodes exactly as documented (any SHA-256 gives the same bytes)', () => {
    const nonce = new Uint8Array(32).fill(7);
    const owner = 'a1b2';
    const expectedCommitment = nodeSha(Buffer.concat([Buffer.from([0x02, 4]), Buffer.from(owner), Buffer.from(nonce)]));
    expect(hex(ownerCommitment(owner, nonce))).toBe(hex(expectedCommitment));
    const expectedLeaf = nodeSha(
      Buffer.concat([
        Buffer.from([0x00, 3]),
        Buffer.from('BTC'),
        Buffer.from([0, 0, 0, 5]),
        u128(12345n),
        Buffer.from(expectedCommitment),
      ]),
    );
    expect(hex(leafHash('BTC', 5, 12345n, expectedCommitment))).toBe(hex(expectedLeaf));
    const left = { hash: new Uint8Array(32).fill(1), sum: 10n };
    const right = { hash: new Uint8Array(32).fill(2), sum: 32n };
    const expectedNode = nodeSha(
      Buffer.concat([Buffer.from([0x01]), Buffer.from(left.hash), u128(10n), Buffer.from(right.hash), u128(32n)]),
    );
    expect(parentOf(left, right)).toEqual({ hash: expectedNode, sum: 42n });
    expect(parentOf(left, right, nodeSha)).toEqual(parentOf(left, right));
  });

  it('reproduces every test vector of docs/proof-vectors.json', () => {
    const vectors = JSON.parse(fs.readFileSync(path.join(__dirname, '../../docs/proof-vectors.json'), 'utf8'));
    for (const v of vectors.commitments)
      expect(hex(ownerCommitment(v.owner, Buffer.from(v.nonce, 'hex')))).toBe(v.commitment);
    for (const v of vectors.leaves)
      expect(hex(leafHash(v.currency, v.index, BigInt(v.amount), Buffer.from(v.commitment, 'hex')))).toBe(v.hash);
    for (const v of vectors.nodes) {
      const node = parentOf(
        { hash: Buffer.from(v.left[0], 'hex'), sum: BigInt(v.left[1]) },
        { hash: Buffer.from(v.right[0], 'hex'), sum: BigInt(v.right[1]) },
      );
      expect([hex(node.hash), node.sum.toString()]).toEqual(v.parent);
    }
    for (const v of vectors.snapshots) {
      expect(snapshotStatement(v.snapshot)).toBe(v.statement);
      expect(snapshotDigest(v.snapshot)).toBe(v.digest);
    }
    for (const v of vectors.proofs) {
      const tree = vectors.snapshots[0].snapshot.trees.find(
        (t: { currency: string }) => t.currency === v.proof.currency,
      );
      expect(verifyInclusion(v.proof, v.owner, v.nonce, tree).ok).toBe(v.valid);
    }
  });

  it('commits a node to both children’s amounts, not only to their total', () => {
    const [a, b] = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
    expect(hex(parentOf({ hash: a, sum: 30n }, { hash: b, sum: 12n }).hash)).not.toBe(
      hex(parentOf({ hash: a, sum: 12n }, { hash: b, sum: 30n }).hash),
    );
  });

  it('refuses to encode a negative amount, one that does not fit 16 bytes, or an owner id out of range', () => {
    const c = new Uint8Array(32);
    expect(() => leafHash('BTC', 0, -1n, c)).toThrow(RangeError);
    expect(() => leafHash('BTC', 0, 1n << 128n, c)).toThrow(RangeError);
    expect(() => parentOf({ hash: c, sum: -5n }, { hash: c, sum: 10n })).toThrow(RangeError);
    expect(() => ownerCommitment('', c)).toThrow(RangeError);
    expect(() => ownerCommitment('x'.repeat(256), c)).toThrow(RangeError);
  });
});

describe('the trees of a snapshot', () => {
  it(`splits an amount into ${MIN_LEAVES} to ${MAX_LEAVES} positive parts that add up to it, none of them the whole`, () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 120n }), (amount) => {
        const parts = splitBalance(amount);
        expect(parts.reduce((a, b) => a + b, 0n)).toBe(amount);
        expect(parts.every((p) => p >= 1n)).toBe(true);
        expect(parts.length).toBeLessThanOrEqual(MAX_LEAVES);
        if (amount >= BigInt(MIN_LEAVES)) expect(parts.length).toBeGreaterThanOrEqual(MIN_LEAVES);
      }),
    );
  });

  it('pads every tree to a power of two of at least 4096 leaves: one holder looks like three hundred', () => {
    const one = buildTree('ETH', [ownerOf('only', 10n ** 18n)]);
    const many = buildTree(
      'ETH',
      Array.from({ length: 300 }, (_, i) => ownerOf(`o${i}`, BigInt(i + 1) * 10n ** 15n)),
    );
    expect(one.leafCount).toBe(MIN_LEAF_COUNT);
    expect(many.leafCount).toBe(MIN_LEAF_COUNT);
    expect(paddedLeafCount(4097)).toBe(8192);
    expect(paddedLeafCount(0)).toBe(MIN_LEAF_COUNT);
  });

  it('proves, for random ledgers, that the root is the sum owed and every owner’s leaves are under it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.bigInt({ min: 1n, max: 5n }),
            fc.bigInt({ min: 1n, max: 10n ** 12n }),
            fc.bigInt({ min: 1n, max: 2n ** 100n }),
          ),
          { minLength: 1, maxLength: 12 },
        ),
        (amounts) => {
          const owners = amounts.map((amount, i) => ownerOf(`owner-${i}`, amount));
          const built = buildTree('LTC', owners, { digest: nodeSha });
          expect(built.root.sum).toBe(amounts.reduce((a, b) => a + b, 0n));
          for (const o of owners) {
            const { tree, proof } = proofOf(built, o.owner);
            const check = verifyInclusion(proof, o.owner, hexNonce(o), tree);
            expect(check).toMatchObject({ ok: true, amount: o.amount.toString(), distinct: true });
          }
        },
      ),
      { numRuns: 15 },
    );
  });

  it('gives no leaf to an amount of 0', () => {
    const built = buildTree('BTC', [ownerOf('zero', 0n), ownerOf('some', 3n)]);
    expect(built.leavesOf.has('zero')).toBe(false);
    expect(built.root.sum).toBe(3n);
  });

  /** An independent build of a tree: every place filled (real leaf or padding), every level hashed in full, with Node's SHA-256. */
  function wholeTree(built: ReturnType<typeof buildTree>) {
    const leaves = placedLeaves(built);
    const pad = (level: number, index: number) => paddingNode(built.paddingSeed, built.currency, level, index, nodeSha);
    const byPlace = new Map(leaves.map((l) => [l.index, l.node]));
    const levels = [Array.from({ length: built.leafCount }, (_, i) => byPlace.get(i) ?? pad(0, i))];
    for (let height = 1; levels[levels.length - 1]!.length > 1; height++) {
      // A subtree with no real leaf below is one padding node of its height: that is the rule.
      const occupied = new Set(leaves.map((l) => l.index >> height));
      const below = levels[levels.length - 1]!;
      levels.push(
        Array.from({ length: below.length / 2 }, (_, i) =>
          occupied.has(i) ? parentOf(below[2 * i]!, below[2 * i + 1]!, nodeSha) : pad(height, i),
        ),
      );
    }
    return levels;
  }

  it('computes the root and every path from what the server stores (packed leaves, their blocks, the upper levels) as the whole tree hashed level by level does', () => {
    const owners = Array.from({ length: 3000 }, (_, i) =>
      ownerOf(`p${i}`, i % 7 === 0 ? 2n ** 90n + BigInt(i) : BigInt(1000 + i)),
    );
    const built = buildTree('DOGE', owners);
    expect(built.leafCount).toBe(8192);
    const levels = wholeTree(built);
    expect(hex(levels[levels.length - 1]![0]!.hash)).toBe(hex(built.root.hash));
    expect(built.root.sum).toBe(owners.reduce((a, o) => a + o.amount, 0n));
    const leaves = placedLeaves(built);
    expect(leaves.map((l) => l.index)).toEqual([...leaves.map((l) => l.index)].sort((a, b) => a - b));
    for (const owner of ['p0', 'p7', 'p1234', 'p2999']) {
      for (const { index } of built.leavesOf.get(owner)!) {
        const siblings = levels.slice(0, -1).map((level, height) => level[(index >> height) ^ 1]!);
        expect(proofPath(built, index)).toEqual(siblings.map((n) => [hex(n.hash), n.sum.toString()]));
      }
    }
  });

  it('computes the same root whether the padding is hashed leaf by leaf or an empty subtree at once, for two holders', () => {
    const built = buildTree('BTC', [ownerOf('a', 10n), ownerOf('b', 20n)]);
    const levels = wholeTree(built);
    expect(hex(levels[levels.length - 1]![0]!.hash)).toBe(hex(built.root.hash));
    expect(built.root.sum).toBe(30n);
  });

  it('refuses a total of 2^128 or more, which the format cannot state', () => {
    expect(() => buildTree('ETH', [ownerOf('a', 2n ** 127n), ownerOf('b', 2n ** 127n)])).toThrow(RangeError);
    expect(buildTree('ETH', [ownerOf('a', 2n ** 127n), ownerOf('b', 2n ** 127n - 1n)]).root.sum).toBe(2n ** 128n - 1n);
  });
});

describe('what an owner’s check refuses', () => {
  const alice = ownerOf('alice', 5_000n);
  const bob = ownerOf('bob', 5_000n);
  const built = buildTree('BTC', [alice, bob, ownerOf('carol', 77n)]);
  const { tree, proof } = proofOf(built, 'alice');

  it('accepts the honest proof', () => {
    expect(verifyInclusion(proof, 'alice', hexNonce(alice), tree).ok).toBe(true);
  });

  it('refuses the leaves for another owner id or another nonce: the operator cannot show two owners one leaf', () => {
    expect(verifyInclusion(proof, 'bob', hexNonce(alice), tree).ok).toBe(false);
    expect(verifyInclusion(proof, 'alice', hexNonce(bob), tree).ok).toBe(false);
  });

  it('refuses a changed amount, a changed sibling, a path of the wrong length, a place given twice, another root', () => {
    const leaf = proof.leaves[0]!;
    const raised = {
      ...proof,
      leaves: [{ ...leaf, value: String(BigInt(leaf.value) + 1n) }, ...proof.leaves.slice(1)],
    };
    expect(verifyInclusion(raised, 'alice', hexNonce(alice), tree).ok).toBe(false);
    const sibling = leaf.path[0]!;
    const shifted = {
      ...proof,
      leaves: [
        { ...leaf, path: [[sibling[0], String(BigInt(sibling[1]) + 1n)] as [string, string], ...leaf.path.slice(1)] },
        ...proof.leaves.slice(1),
      ],
    };
    expect(verifyInclusion(shifted, 'alice', hexNonce(alice), tree).problems.join()).toMatch(
      /does not lead to the published root/,
    );
    const short = { ...proof, leaves: [{ ...leaf, path: leaf.path.slice(1) }] };
    expect(verifyInclusion(short, 'alice', hexNonce(alice), tree).problems.join()).toMatch(/needs a path of 12 steps/);
    const twice = { ...proof, leaves: [leaf, leaf] };
    expect(verifyInclusion(twice, 'alice', hexNonce(alice), tree)).toMatchObject({ ok: false, distinct: false });
    const other = publishTree(buildTree('BTC', [alice]), 8);
    expect(verifyInclusion(proof, 'alice', hexNonce(alice), other)).toMatchObject({ ok: false, rootMatches: false });
  });
});

describe('a published snapshot', () => {
  const snapshot = (): PublishedSnapshot => ({
    format: LIABILITIES_FORMAT,
    snapshotId: 3,
    takenAt: '2026-11-28T07:00:00.000Z',
    trees: [
      publishTree(buildTree('LTC', [ownerOf('x', 12n)]), 8),
      publishTree(buildTree('BTC', [ownerOf('y', 9n)]), 8),
    ],
  });

  it('holds, and its digest is SHA-256 of its statement (trees in the order of their codes)', () => {
    const s = snapshot();
    const check = verifySnapshot(s);
    expect(check.ok).toBe(true);
    const statement = snapshotStatement(s);
    expect(statement.split('\n')[3]).toMatch(/^BTC 8 4096 [0-9a-f]{64} 9$/);
    expect(check.digest).toBe(createHash('sha256').update(statement, 'utf8').digest('hex'));
  });

  it('refuses another format, a tree size that is not padded, two trees of one currency, an amount that is not an integer', () => {
    expect(verifySnapshot({ ...snapshot(), format: 'muntly-liabilities-1' as typeof LIABILITIES_FORMAT }).ok).toBe(
      false,
    );
    const small = snapshot();
    small.trees[0]!.leafCount = 2048;
    expect(verifySnapshot(small).ok).toBe(false);
    const twice = snapshot();
    twice.trees[1]!.currency = 'LTC';
    expect(verifySnapshot(twice).problems).toContain('a currency has two trees');
    const negative = snapshot();
    negative.trees[0]!.root.sum = '-1';
    expect(verifySnapshot(negative).ok).toBe(false);
  });
});
