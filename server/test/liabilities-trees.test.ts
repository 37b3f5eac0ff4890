/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto';
import { BLOCK_LEVELS, blockPath, ownerCommitment, unpackLeaves, unpackNode, upperOffsets, verifyInclusion, PACKED_LEAF_BYTES, PACKED_NODE_BYTES } from '../../domain/liabilities';
import { buildTrees, type BuiltTreeBytes } from '../src/modules/liabilities/trees';

/**
 * The trees of a large ledger are built in worker threads (server/src/modules/liabilities/trees.ts).
 * Built there or here, every owner's leaves must prove their way to the root from what is stored.
 */
function proofFrom(tree: BuiltTreeBytes, places: number[]) {
  const leaves = unpackLeaves(tree.leaves);
  const directory = new DataView(tree.directory.buffer, tree.directory.byteOffset, tree.directory.byteLength);
  return places.map((index) => {
    const block = index >> BLOCK_LEVELS;
    const own = leaves.slice(directory.getUint32(4 * block), directory.getUint32(4 * block + 4));
    const upper = upperOffsets(tree.leafCount, index).map((offset) => unpackNode(tree.nodes.subarray(offset, offset + PACKED_NODE_BYTES)));
    return { index, value: own.find((l) => l.index === index)!.node.sum.toString(), path: [...blockPath(tree.currency, index, own, tree.paddingSeed), ...upper] };
  });
}

it.each([
  ['in the main thread', Infinity],
  ['in worker threads', 0],
])(
  'builds every currency’s tree %s, in the order given, each owner’s leaves proving their way to the root',
  async (_, threshold) => {
    const owners = (n: number) =>
      Array.from({ length: n }, (_, i) => {
        const nonce = randomBytes(32);
        return { owner: `owner-${i}`, amount: BigInt(1 + i * 997), nonce, commitment: ownerCommitment(`owner-${i}`, nonce) };
      });
    const inputs = [
      { currency: 'BTC', owners: owners(300) },
      { currency: 'ETH', owners: owners(5) },
      { currency: 'LTC', owners: owners(40) },
    ];
    const built: BuiltTreeBytes[] = [];
    await buildTrees(inputs, async (tree) => void built.push(tree), { threshold });
    expect(built.map((t) => t.currency)).toEqual(['BTC', 'ETH', 'LTC']);
    for (const [i, tree] of built.entries()) {
      const input = inputs[i]!;
      expect(tree.total).toBe(input.owners.reduce((sum, o) => sum + o.amount, 0n));
      // Two leaves per owner (one for an amount of 1).
      expect(tree.leaves.length).toBe(input.owners.reduce((n, o) => n + (o.amount > 1n ? 2 : 1), 0) * PACKED_LEAF_BYTES);
      const published = { currency: tree.currency, decimals: 8, leafCount: tree.leafCount, root: { hash: Buffer.from(tree.rootHash).toString('hex'), sum: tree.total.toString() } };
      for (const [o, owner] of input.owners.entries()) {
        const leaves = proofFrom(tree, tree.placesOf[o]!);
        const check = verifyInclusion({ currency: tree.currency, root: published.root, leafCount: tree.leafCount, leaves }, owner.owner, owner.nonce.toString('hex'), published);
        expect([owner.owner, check.ok, check.amount]).toEqual([owner.owner, true, owner.amount.toString()]);
      }
    }
  },
  60_000,
);
