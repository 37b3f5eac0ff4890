/**
 * @jest-environment node
 */
import { createHash, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  buildTree,
  leafHash,
  levelsFrom,
  LIABILITIES_FORMAT,
  MAX_LEAVES,
  MIN_LEAVES,
  parentOf,
  proofPath,
  publishTree,
  packLevels,
  pathOffsets,
  levelSizes,
  unpackNode,
  PACKED_NODE_BYTES,
  EMPTY_PUBLISHED,
  publishTreeJson,
  randomIntegers,
  rootOf,
  splitBalance,
  verifyInclusion,
  verifyPath,
  verifySnapshot,
  verifyTree,
  type AccountBalance,
  type PublishedSnapshot,
  type PublishedTree,
} from '../liabilities';

// Node's own SHA-256, independent of the @noble/hashes code the browser runs: anyone with a
// standard SHA-256 must get the same tree from the documented encoding.
const nodeSha = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const u128 = (value: bigint) => Buffer.from(value.toString(16).padStart(32, '0'), 'hex');

/** A random ledger: users with balances (some zero, some tiny, some huge) and their nonces. */
const ledger = fc
  .array(fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: 5n }), fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.bigInt({ min: 0n, max: 2n ** 100n })), { minLength: 1, maxLength: 25 })
  .map((balances): AccountBalance[] => balances.map((balance, i) => ({ account: `account-${i}`, balance, nonce: new Uint8Array(randomBytes(32)) })));

const nonceOf = (account: AccountBalance) => hex(account.nonce);

describe('the Merkle sum tree of liabilities', () => {
  it('hashes leaves and nodes exactly as documented (any SHA-256 gives the same bytes)', () => {
    const nonce = new Uint8Array(32).fill(7);
    const expectedLeaf = nodeSha(Buffer.concat([Buffer.from([0x00, 3]), Buffer.from('BTC'), Buffer.from([0, 0, 0, 5]), u128(12345n), Buffer.from(nonce)]));
    expect(hex(leafHash('BTC', 5, 12345n, nonce))).toBe(hex(expectedLeaf));
    const left = { hash: new Uint8Array(32).fill(1), sum: 10n };
    const right = { hash: new Uint8Array(32).fill(2), sum: 32n };
    const expectedNode = nodeSha(Buffer.concat([Buffer.from([0x01]), Buffer.from(left.hash), u128(10n), Buffer.from(right.hash), u128(32n)]));
    expect(parentOf(left, right)).toEqual({ hash: expectedNode, sum: 42n });
    expect(parentOf(left, right, nodeSha)).toEqual(parentOf(left, right));
  });

  it('commits a node to both children’s amounts, not only to their total', () => {
    const [a, b] = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
    const honest = parentOf({ hash: a, sum: 30n }, { hash: b, sum: 12n });
    const shifted = parentOf({ hash: a, sum: 12n }, { hash: b, sum: 30n });
    expect(honest.sum).toBe(shifted.sum);
    expect(hex(honest.hash)).not.toBe(hex(shifted.hash));
  });

  it('refuses to encode a negative amount or one that does not fit 16 bytes', () => {
    const nonce = new Uint8Array(32);
    expect(() => leafHash('BTC', 0, -1n, nonce)).toThrow(RangeError);
    expect(() => leafHash('BTC', 0, 1n << 128n, nonce)).toThrow(RangeError);
    expect(() => parentOf({ hash: nonce, sum: -5n }, { hash: nonce, sum: 10n })).toThrow(RangeError);
  });

  it('splits a balance into 2 to 4 positive parts that add up to it, none of them the whole balance', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 120n }), (balance) => {
        const parts = splitBalance(balance);
        expect(parts.reduce((a, b) => a + b, 0n)).toBe(balance);
        expect(parts.every((p) => p >= 0n)).toBe(true);
        if (balance >= BigInt(MAX_LEAVES)) {
          expect(parts.length).toBeGreaterThanOrEqual(MIN_LEAVES);
          expect(parts.length).toBeLessThanOrEqual(MAX_LEAVES);
        }
        if (balance > 0n) {
          expect(parts.every((p) => p >= 1n)).toBe(true);
          if (parts.length > 1) expect(parts).not.toContain(balance);
        }
      }),
    );
  });

  it('draws random integers without bias', () => {
    const randoms = randomIntegers();
    const counts = [0, 0, 0];
    for (let i = 0; i < 30_000; i++) counts[randoms.intBelow(3)]!++;
    for (const count of counts) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });

  it('random ledgers: the root is the total, every node is non-negative, every user’s every leaf proves its way to the root', () => {
    fc.assert(
      fc.property(ledger, fc.constantFrom('BTC', 'ETH', 'SHIB'), (accounts, currency) => {
        const tree = buildTree(currency, accounts);
        const published = publishTree(tree, 8);
        const total = accounts.reduce((sum, a) => sum + a.balance, 0n);
        expect(published.root.sum).toBe(total.toString());
        expect(verifyTree(published)).toEqual({ currency, ok: true, leafCount: published.leafCount, total: total.toString(), problems: [] });
        expect(published.levels.flat().every(([, sum]) => BigInt(sum) >= 0n)).toBe(true);
        for (const account of accounts) {
          const leaves = tree.leavesOf.get(account.account)!;
          expect(leaves.reduce((sum, l) => sum + l.value, 0n)).toBe(account.balance);
          for (const leaf of leaves) {
            const check = verifyPath({ currency, index: leaf.index, value: leaf.value.toString() }, nonceOf(account), proofPath(published.levels, leaf.index), published.root);
            expect(check.problems).toEqual([]);
            expect(check.ok).toBe(true);
            expect(check.steps.every((s) => s.nonNegative)).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('writes the published JSON directly, byte for byte what JSON.stringify makes of the tree', () => {
    fc.assert(
      fc.property(ledger, (accounts) => {
        const tree = buildTree('DOGE', accounts);
        expect(publishTreeJson(tree, 8)).toBe(JSON.stringify(publishTree(tree, 8)));
      }),
      { numRuns: 20 },
    );
  });

  it('packs the levels at fixed offsets: every path read from the packed bytes is the path of the published tree', () => {
    fc.assert(
      fc.property(ledger, fc.nat(), (accounts, pick) => {
        const tree = buildTree('ETH', accounts);
        const published = publishTree(tree, 9);
        const packed = packLevels(tree.levels);
        expect(levelSizes(published.leafCount)).toEqual(published.levels.map((l) => l.length));
        const index = pick % published.leafCount;
        const { leaf, siblings } = pathOffsets(published.leafCount, index);
        const read = (offset: number | null) => (offset === null ? EMPTY_PUBLISHED : unpackNode(packed.subarray(offset, offset + PACKED_NODE_BYTES)));
        expect(read(leaf)).toEqual(published.levels[0]![index]);
        expect(siblings.map(read)).toEqual(proofPath(published.levels, index));
      }),
      { numRuns: 40 },
    );
  });

  it('the same tree from Node’s SHA-256 and from the browser’s', () => {
    const accounts: AccountBalance[] = [1n, 99n, 0n, 123456789n].map((balance, i) => ({ account: `a${i}`, balance, nonce: new Uint8Array(randomBytes(32)) }));
    const seed = randomBytes(1 << 16);
    let at = 0;
    const replay = (n: number) => new Uint8Array(seed.subarray(at, (at += n)));
    const withNode = buildTree('LTC', accounts, { random: replay, digest: nodeSha });
    at = 0;
    const withNoble = buildTree('LTC', accounts, { random: replay });
    expect(publishTree(withNode, 8)).toEqual(publishTree(withNoble, 8));
    expect(verifyTree(publishTree(withNode, 8), nodeSha).ok).toBe(true);
  });

  it('a changed amount, nonce, index, sibling or root fails the path check', () => {
    fc.assert(
      fc.property(ledger, fc.nat(), fc.nat(), (accounts, pick, stepPick) => {
        const tree = buildTree('ETH', accounts);
        const published = publishTree(tree, 9);
        const account = accounts[pick % accounts.length]!;
        const leaf = tree.leavesOf.get(account.account)![0]!;
        const path = proofPath(published.levels, leaf.index);
        const honest = { currency: 'ETH', index: leaf.index, value: leaf.value.toString() };
        const check = (l = honest, nonce = nonceOf(account), p = path, root = published.root) => verifyPath(l, nonce, p, root).ok;
        expect(check()).toBe(true);
        expect(check({ ...honest, value: (leaf.value + 1n).toString() })).toBe(false);
        if (leaf.value > 0n) expect(check({ ...honest, value: (leaf.value - 1n).toString() })).toBe(false);
        expect(check({ ...honest, value: '-1' })).toBe(false);
        expect(check(honest, hex(randomBytes(32)))).toBe(false);
        expect(check({ ...honest, currency: 'BTC' })).toBe(false);
        if (published.leafCount > 1) expect(check({ ...honest, index: leaf.index ^ 1 })).toBe(false);
        expect(check(honest, nonceOf(account), path, { ...published.root, sum: (BigInt(published.root.sum) + 1n).toString() })).toBe(false);
        if (path.length > 0) {
          const s = stepPick % path.length;
          const [hash, sum] = path[s]!;
          const flipped = `${hash[0] === '0' ? '1' : '0'}${hash.slice(1)}`;
          expect(
            check(
              honest,
              nonceOf(account),
              path.map((step, i) => (i === s ? [flipped, sum] : step)),
            ),
          ).toBe(false);
          expect(
            check(
              honest,
              nonceOf(account),
              path.map((step, i) => (i === s ? [hash, (BigInt(sum) + 1n).toString()] : step)),
            ),
          ).toBe(false);
          // A negative sibling (even "-0") is refused outright.
          expect(
            check(
              honest,
              nonceOf(account),
              path.map((step, i) => (i === s ? [hash, `-${sum}`] : step)),
            ),
          ).toBe(false);
          expect(check(honest, nonceOf(account), path.slice(0, -1))).toBe(false);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('the wallet page’s check: every user’s leaves are found in the published tree, their paths made of its nodes, up to its root', () => {
    fc.assert(
      fc.property(ledger, fc.nat(), (accounts, pick) => {
        const tree = buildTree('XRP', accounts);
        const published = publishTree(tree, 6);
        const account = accounts[pick % accounts.length]!;
        const leaves = tree.leavesOf.get(account.account)!.map((l) => ({ index: l.index, value: l.value.toString(), path: proofPath(published.levels, l.index) }));
        const proof = { currency: 'XRP', root: published.root, leaves };
        const check = verifyInclusion(proof, nonceOf(account), published);
        expect(check).toMatchObject({ ok: true, rootMatches: true, balance: account.balance.toString() });
        // Someone else's nonce, another root, a tree with one amount changed: the check fails.
        expect(verifyInclusion(proof, hex(randomBytes(32)), published).ok).toBe(false);
        expect(verifyInclusion({ ...proof, root: { ...published.root, sum: '1' } }, nonceOf(account), published).ok).toBe(published.root.sum === '1');
        const changed = structuredClone(published);
        changed.levels[0]![0]![1] = (BigInt(changed.levels[0]![0]![1]) + 1n).toString();
        expect(verifyInclusion(proof, nonceOf(account), changed).ok).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('a changed leaf, node or root fails the whole-tree check', () => {
    fc.assert(
      fc.property(ledger, fc.nat(), (accounts, pick) => {
        const published = publishTree(buildTree('BTC', accounts), 8);
        const tampered = (level: number, change: (node: [string, string]) => [string, string]): PublishedTree => {
          const levels = published.levels.map((l) => l.map((n) => [...n] as [string, string]));
          const i = pick % levels[level]!.length;
          levels[level]![i] = change(levels[level]![i]!);
          return { ...published, levels };
        };
        expect(verifyTree(tampered(0, ([h, s]) => [h, (BigInt(s) + 1n).toString()])).ok).toBe(false);
        expect(verifyTree(tampered(0, ([h, s]) => [`${h[0] === 'a' ? 'b' : 'a'}${h.slice(1)}`, s])).ok).toBe(false);
        expect(verifyTree(tampered(0, ([h]) => [h, '-1'])).ok).toBe(false);
        if (published.levels.length > 1) expect(verifyTree(tampered(1, ([h, s]) => [h, (BigInt(s) + 1n).toString()])).ok).toBe(false);
        expect(verifyTree({ ...published, root: { ...published.root, sum: '0' } }).ok).toBe(accounts.every((a) => a.balance === 0n));
        expect(verifyTree({ ...published, levels: published.levels.slice(0, -1) }).ok).toBe(false);
      }),
      { numRuns: 40 },
    );
  });

  it('a published snapshot verifies tree by tree; anything else is named', () => {
    const accounts: AccountBalance[] = [{ account: 'x', balance: 5n, nonce: new Uint8Array(32) }];
    const snapshot: PublishedSnapshot = { format: LIABILITIES_FORMAT, snapshotId: 1, takenAt: '2026-11-24T00:00:00.000Z', trees: [publishTree(buildTree('BTC', accounts), 8)] };
    expect(verifySnapshot(snapshot)).toMatchObject({ ok: true, problems: [] });
    expect(verifySnapshot({ ...snapshot, format: 'other' } as never).problems).toEqual([`not a ${LIABILITIES_FORMAT} file`]);
    expect(verifySnapshot({ ...snapshot, trees: [] }).ok).toBe(true); // nobody holds anything: nothing is owed
    expect(verifySnapshot({ ...snapshot, trees: undefined } as never).ok).toBe(false);
    expect(verifyTree({ ...snapshot.trees[0]!, levels: [] }).problems).toEqual(['the tree has no leaves']);
  });

  it('completes an odd level with the empty node', () => {
    const leaves = [1n, 2n, 3n].map((sum) => ({ hash: new Uint8Array(32).fill(Number(sum)), sum }));
    const levels = levelsFrom(leaves);
    expect(levels.map((l) => l.length)).toEqual([3, 2, 1]);
    expect(rootOf(levels).sum).toBe(6n);
    expect(levels[1]![1]).toEqual(parentOf(leaves[2]!, { hash: new Uint8Array(32), sum: 0n }));
  });
});

describe('what the published tree does not reveal', () => {
  /** Each account's leaves in a fresh snapshot of the same balances. */
  const snapshot = (accounts: AccountBalance[]) => {
    const fresh = accounts.map((a) => ({ ...a, nonce: new Uint8Array(randomBytes(32)) }));
    const tree = buildTree('BTC', fresh);
    return { tree, published: publishTree(tree, 8), fresh };
  };

  it('names no account, no nonce and no balance of more than one leaf', () => {
    fc.assert(
      fc.property(ledger, (accounts) => {
        const { tree, published, fresh } = snapshot(accounts);
        const text = JSON.stringify(published);
        for (const account of fresh) {
          expect(text).not.toContain(account.account);
          expect(text).not.toContain(hex(account.nonce));
          const leaves = tree.leavesOf.get(account.account)!;
          const values = published.levels[0]!.filter((_, i) => leaves.some((l) => l.index === i)).map(([, sum]) => BigInt(sum));
          // A balance split into several leaves appears in none of them.
          if (leaves.length > 1 && account.balance > 0n) expect(values).not.toContain(account.balance);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('two snapshots of the same balances share no stable trace of an account: leaf positions, amounts and counts change', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 10n ** 9n, max: 10n ** 15n }), { minLength: 20, maxLength: 40 }), (balances) => {
        const accounts = balances.map((balance, i) => ({ account: `account-${i}`, balance, nonce: new Uint8Array(32) }));
        const first = snapshot(accounts);
        const second = snapshot(accounts);
        let sameCount = 0;
        let samePositions = 0;
        let sameAmounts = 0;
        for (const { account } of accounts) {
          const a = first.tree.leavesOf.get(account)!;
          const b = second.tree.leavesOf.get(account)!;
          if (a.length === b.length) sameCount++;
          if (a.map((l) => l.index).join() === b.map((l) => l.index).join()) samePositions++;
          const amounts = (leaves: typeof a) => leaves.map((l) => l.value.toString()).sort();
          if (amounts(a).some((v) => amounts(b).includes(v))) sameAmounts++;
        }
        // Counts are drawn afresh (2, 3 or 4: about a third agree by chance, never all of 20 or more).
        expect(sameCount).toBeLessThan(accounts.length);
        // An account may land on the very same places by chance (about once in 20,000), never as a rule.
        expect(samePositions).toBeLessThanOrEqual(1);
        expect(sameAmounts).toBe(0);
        // The leaf hashes of the two snapshots have nothing in common either.
        const hashes = new Set(first.published.levels[0]!.map(([h]) => h));
        expect(second.published.levels[0]!.some(([h]) => hashes.has(h))).toBe(false);
      }),
      { numRuns: 30 },
    );
  });
});
