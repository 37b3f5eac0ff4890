import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  buildTree,
  leafHash,
  LIABILITIES_FORMAT,
  ownerCommitment,
  parentOf,
  proofPath,
  publishTree,
  snapshotDigest,
  snapshotStatement,
  type PublishedSnapshot,
} from '#domain/liabilities';

/**
 * Writes docs/proof-vectors.json, the test vectors of docs/proof-format.md: `npx tsx tools/proof-vectors.ts`.
 * Everything is deterministic (fixed nonces, a random source that is SHA-256 of a counter), so the
 * file only changes when the format does; domain/__tests__/liabilities.test.ts and
 * tools/verify_proof.py (tools/test_verify_proof.py) both check against it.
 */
let counter = 0;
const deterministic = (length: number): Uint8Array => {
  const out = new Uint8Array(length);
  for (let at = 0; at < length; at += 32)
    out.set(
      createHash('sha256')
        .update(`muntly-vectors-${counter++}`)
        .digest()
        .subarray(0, Math.min(32, length - at)),
      at,
    );
  return out;
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const nonce = (n: number) => new Uint8Array(32).fill(n);

const commitments = [
  { owner: 'a1b2', nonce: hex(nonce(7)) },
  { owner: '6f1c0a52-93a4-4c1e-9f1e-0d6b7f1f5a11', nonce: hex(nonce(1)) },
  { owner: 'order:Zürich-1', nonce: hex(nonce(255)) },
].map((c) => ({ ...c, commitment: hex(ownerCommitment(c.owner, Buffer.from(c.nonce, 'hex'))) }));

const leaves = [
  { currency: 'BTC', index: 5, amount: '12345', commitment: commitments[0]!.commitment },
  { currency: 'ETH', index: 4095, amount: '25000000000000000001', commitment: commitments[1]!.commitment },
  { currency: 'EUR', index: 0, amount: '0', commitment: commitments[2]!.commitment },
].map((l) => ({ ...l, hash: hex(leafHash(l.currency, l.index, BigInt(l.amount), Buffer.from(l.commitment, 'hex'))) }));

const node = (h: string, s: string) => ({ hash: Buffer.from(h, 'hex'), sum: BigInt(s) });
const nodes = [
  { left: [leaves[0]!.hash, '12345'], right: [leaves[2]!.hash, '0'] },
  { left: ['00'.repeat(32), '340282366920938463463374607431768211455'], right: ['ff'.repeat(32), '0'] },
].map((n) => {
  const parent = parentOf(node(n.left[0]!, n.left[1]!), node(n.right[0]!, n.right[1]!));
  return { ...n, parent: [hex(parent.hash), parent.sum.toString()] };
});

const alice = { owner: '6f1c0a52-93a4-4c1e-9f1e-0d6b7f1f5a11', nonce: nonce(1) };
const bob = { owner: 'b0b', nonce: nonce(2) };
const owners = (amounts: [typeof alice, bigint][]) =>
  amounts.map(([o, amount]) => ({ owner: o.owner, amount, commitment: ownerCommitment(o.owner, o.nonce) }));
const btc = buildTree(
  'BTC',
  owners([
    [alice, 150_000_000n],
    [bob, 7n],
  ]),
  { random: deterministic },
);
const eur = buildTree('EUR', owners([[alice, 43_537n]]), { random: deterministic });
const snapshot: PublishedSnapshot = {
  format: LIABILITIES_FORMAT,
  snapshotId: 1,
  takenAt: '2026-11-28T07:00:00.000Z',
  trees: [publishTree(eur, 2), publishTree(btc, 8)],
};
const proofOf = (built: typeof btc, who: typeof alice) => {
  const tree = publishTree(built, 8);
  return {
    currency: built.currency,
    root: tree.root,
    leafCount: tree.leafCount,
    leaves: built.leavesOf
      .get(who.owner)!
      .map((l) => ({ index: l.index, value: l.value.toString(), path: proofPath(built, l.index) })),
  };
};
const honest = proofOf(btc, alice);
const first = honest.leaves[0]!;
const proofs = [
  { about: 'alice’s BTC leaves', owner: alice.owner, nonce: hex(alice.nonce), proof: honest, valid: true },
  { about: 'alice’s EUR leaves', owner: alice.owner, nonce: hex(alice.nonce), proof: proofOf(eur, alice), valid: true },
  { about: 'bob’s BTC leaves', owner: bob.owner, nonce: hex(bob.nonce), proof: proofOf(btc, bob), valid: true },
  { about: 'alice’s leaves claimed by bob', owner: bob.owner, nonce: hex(alice.nonce), proof: honest, valid: false },
  {
    about: 'a leaf raised by one unit',
    owner: alice.owner,
    nonce: hex(alice.nonce),
    proof: { ...honest, leaves: [{ ...first, value: String(BigInt(first.value) + 1n) }, ...honest.leaves.slice(1)] },
    valid: false,
  },
  {
    about: 'a leaf given twice',
    owner: alice.owner,
    nonce: hex(alice.nonce),
    proof: { ...honest, leaves: [first, first] },
    valid: false,
  },
];

const file = path.join(__dirname, '../docs/proof-vectors.json');
fs.writeFileSync(
  file,
  `${JSON.stringify({ format: LIABILITIES_FORMAT, commitments, leaves, nodes, snapshots: [{ snapshot, statement: snapshotStatement(snapshot), digest: snapshotDigest(snapshot) }], proofs }, null, 1)}\n`,
);
console.log(`wrote ${file}`);
