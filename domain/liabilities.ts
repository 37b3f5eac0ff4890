import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes } from '@noble/hashes/utils.js';

/**
 * Proof of liabilities: a Merkle sum tree per currency, in the manner of BitMEX's open-source
 * proof of reserves and liabilities. Shared by the API (which builds and publishes the tree) and
 * the browser and `npm run verify:liabilities` (which check it), so it uses no Node API.
 *
 * How a snapshot is made (server/src/modules/liabilities):
 * - every user balance of the currency is split at random into a few leaves (non-negative integer
 *   amounts in minor units that add up to the balance, each at least 1 when the balance allows);
 * - the leaves of all users are shuffled with a cryptographic random source;
 * - each leaf commits to its amount, its position and the account's secret nonce of this snapshot,
 *   so only the account's owner (who is given the nonce) can recognise their leaves;
 * - each node carries the sum of its two children, and its hash commits to both children's hashes
 *   and sums; the root's sum is the total the operator owes its users in that currency.
 *
 * Canonical byte encoding (every hash is SHA-256; hex in JSON is lower case):
 * - amount: 16 bytes, unsigned big-endian (a negative amount or one of 2^128 or more cannot be
 *   encoded, so no node can carry one);
 * - leaf  = SHA-256( 0x00 ‖ len(currency) as 1 byte ‖ currency in ASCII ‖ leaf index as 4 bytes
 *   big-endian ‖ amount ‖ nonce (32 bytes) );
 * - node  = SHA-256( 0x01 ‖ left hash ‖ left amount ‖ right hash ‖ right amount ), and its amount
 *   is left amount + right amount;
 * - a level of odd length is completed by the empty node (hash of 32 zero bytes, amount 0), so
 *   every path has a sibling on every level.
 * The leading byte keeps leaves and nodes apart. The currency in the leaf keeps an account's
 * leaves in two currencies' trees from looking alike (one nonce serves all of an account's trees).
 * The node commits to both children's amounts, not only to their total: with the total alone the
 * operator could show two users different amounts for each other's side of one node and owe less
 * than the sum of the balances it proves (the known weakness of Maxwell's first summation tree).
 *
 * Published (JSON): per currency the levels from the leaves (level 0) up to the root, each node
 * as [hash, amount], amounts as decimal strings of minor units. A user's proof is, for each of
 * their leaves, its index, amount and the sibling of every level on the way up.
 */

export const LIABILITIES_FORMAT = 'muntly-liabilities-1';

/** How many leaves a balance is split into (at random between these, fewer for a tiny balance). */
export const MIN_LEAVES = 2;
export const MAX_LEAVES = 4;

const AMOUNT_BYTES = 16;
const MAX_AMOUNT = (1n << 128n) - 1n;
const LEAF_TAG = 0x00;
const NODE_TAG = 0x01;
export const NONCE_BYTES = 32;

/** SHA-256 of some bytes: @noble/hashes by default; the server may pass Node's, which is faster. */
export type Digest = (data: Uint8Array) => Uint8Array;
/** Cryptographically random bytes (the browser's and Node's crypto.getRandomValues by default). */
export type RandomSource = (length: number) => Uint8Array;

export const nobleDigest: Digest = (data) => sha256(data);
const defaultRandom: RandomSource = (length) => randomBytes(length);

export type TreeNode = { hash: Uint8Array; sum: bigint };
/** A node as published: [hash in hex, amount in minor units as a decimal string]. */
export type PublishedNode = [hash: string, sum: string];

export const EMPTY_NODE: TreeNode = { hash: new Uint8Array(32), sum: 0n };

export type PublishedTree = {
  currency: string;
  decimals: number;
  root: { hash: string; sum: string };
  leafCount: number;
  /** levels[0] are the leaves, the last level is [root]. */
  levels: PublishedNode[][];
};

export type PublishedSnapshot = {
  format: typeof LIABILITIES_FORMAT;
  snapshotId: number;
  takenAt: string;
  /** The reserves side published beside the trees (domain/contracts/liabilities.ts); not part of the proof. */
  reserves?: unknown;
  trees: PublishedTree[];
};

/** One step of a path: the sibling on that level, leaf level first. */
export type PathStep = PublishedNode;
export type LeafProof = { index: number; value: string; path: PathStep[] };

const LOW_64 = (1n << 64n) - 1n;

/** Writes an amount as 16 bytes big-endian at `offset` (throws for a negative amount or one of 2^128 or more). */
function writeAmount(view: DataView, offset: number, value: bigint): void {
  if (value < 0n || value > MAX_AMOUNT) throw new RangeError(`amount out of range: ${value}`);
  view.setBigUint64(offset, value >> 64n);
  view.setBigUint64(offset + 8, value & LOW_64);
}

const currencyCodes = new Map<string, Uint8Array>();
function currencyBytes(currency: string): Uint8Array {
  const known = currencyCodes.get(currency);
  if (known) return known;
  if (!/^[A-Z0-9]{1,16}$/.test(currency)) throw new RangeError(`not a currency code: ${currency}`);
  const bytes = Uint8Array.from([currency.length, ...Array.from(currency, (c) => c.charCodeAt(0))]);
  currencyCodes.set(currency, bytes);
  return bytes;
}

/**
 * The bytes being hashed are written into one buffer, over and over: a large tree hashes millions
 * of nodes, and a fresh buffer for each kept the garbage collector busier than the hashing. (The
 * digest reads the bytes before it returns, and JavaScript runs one call at a time.)
 */
const scratch = new Uint8Array(1 + 2 * (32 + AMOUNT_BYTES) + 64);
const view = new DataView(scratch.buffer);

/** The leaf's hash: what the owner recomputes from the amount, the index and their nonce. */
export function leafHash(currency: string, index: number, value: bigint, nonce: Uint8Array, digest: Digest = nobleDigest): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index > 0xffffffff) throw new RangeError(`leaf index out of range: ${index}`);
  if (nonce.length !== NONCE_BYTES) throw new RangeError('a nonce is 32 bytes');
  const code = currencyBytes(currency);
  const data = scratch.subarray(0, 1 + code.length + 4 + AMOUNT_BYTES + NONCE_BYTES);
  data[0] = LEAF_TAG;
  data.set(code, 1);
  view.setUint32(1 + code.length, index);
  writeAmount(view, 5 + code.length, value);
  data.set(nonce, 5 + code.length + AMOUNT_BYTES);
  return digest(data);
}

/** The parent of two nodes: its amount is theirs added, its hash commits to both hashes and amounts. */
export function parentOf(left: TreeNode, right: TreeNode, digest: Digest = nobleDigest): TreeNode {
  const data = scratch.subarray(0, 1 + 2 * (32 + AMOUNT_BYTES));
  data[0] = NODE_TAG;
  data.set(left.hash, 1);
  writeAmount(view, 33, left.sum);
  data.set(right.hash, 33 + AMOUNT_BYTES);
  writeAmount(view, 65 + AMOUNT_BYTES, right.sum);
  return { hash: digest(data), sum: left.sum + right.sum };
}

/** Random integers from a random source, unbiased (rejection sampling), read from a pool. */
export function randomIntegers(random: RandomSource = defaultRandom) {
  let pool: Uint8Array = new Uint8Array(0);
  let at = 0;
  const bytes = (n: number): Uint8Array => {
    if (at + n > pool.length) {
      pool = random(Math.max(4096, n));
      at = 0;
    }
    const out = pool.subarray(at, at + n);
    at += n;
    return out;
  };
  /** A uniform bigint in [0, below). */
  const bigintBelow = (below: bigint): bigint => {
    if (below <= 0n) throw new RangeError('empty range');
    const bits = below.toString(2).length;
    const length = Math.ceil(bits / 8);
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      const candidate = BigInt(`0x${bytesToHex(bytes(length))}`) & mask;
      if (candidate < below) return candidate;
    }
  };
  /** A uniform integer in [0, below), below at most 2^32. */
  const intBelow = (below: number): number => {
    if (below <= 0 || below > 2 ** 32) throw new RangeError('range out of bounds');
    const limit = Math.floor(2 ** 32 / below) * below;
    for (;;) {
      const b = bytes(4);
      const candidate = ((b[0]! << 24) >>> 0) + (b[1]! << 16) + (b[2]! << 8) + b[3]!;
      if (candidate < limit) return candidate % below;
    }
  };
  return { bigintBelow, intBelow };
}
type Randoms = ReturnType<typeof randomIntegers>;

/**
 * Splits a balance at random into MIN_LEAVES to MAX_LEAVES parts that add up to it. The cuts are
 * distinct points strictly inside the balance, so every part is at least 1 and none is the whole
 * balance (a balance smaller than the number of parts gets as many parts as it has units; zero
 * is split into zeros).
 */
export function splitBalance(balance: bigint, randoms: Randoms = randomIntegers()): bigint[] {
  if (balance < 0n) throw new RangeError('a user balance is never negative');
  let parts = MIN_LEAVES + randoms.intBelow(MAX_LEAVES - MIN_LEAVES + 1);
  if (balance === 0n) return Array.from({ length: parts }, () => 0n);
  if (balance < BigInt(parts)) parts = Number(balance);
  const cuts = new Set<bigint>();
  while (cuts.size < parts - 1) cuts.add(1n + randoms.bigintBelow(balance - 1n));
  const points = [0n, ...[...cuts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), balance];
  return points.slice(1).map((point, i) => point - points[i]!);
}

/** In-place Fisher–Yates shuffle with unbiased random indexes. */
function shuffle<T>(items: T[], randoms: Randoms): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randoms.intBelow(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/** The levels above the leaves, up to the root (an odd level completed by the empty node). */
export function levelsFrom(leaves: TreeNode[], digest: Digest = nobleDigest): TreeNode[][] {
  if (leaves.length === 0) throw new RangeError('a tree needs at least one leaf');
  const levels = [leaves];
  while (levels[levels.length - 1]!.length > 1) {
    const below = levels[levels.length - 1]!;
    const level: TreeNode[] = [];
    for (let i = 0; i < below.length; i += 2) level.push(parentOf(below[i]!, below[i + 1] ?? EMPTY_NODE, digest));
    levels.push(level);
  }
  return levels;
}

export const rootOf = (levels: TreeNode[][]): TreeNode => levels[levels.length - 1]![0]!;

export type AccountBalance = { account: string; balance: bigint; nonce: Uint8Array };
export type BuiltTree = {
  currency: string;
  levels: TreeNode[][];
  /** Each account's leaves: their indexes in the tree and amounts. */
  leavesOf: Map<string, { index: number; value: bigint }[]>;
};

/** Builds a currency's tree from every user's balance and nonce (see the top of this file). */
export function buildTree(currency: string, balances: readonly AccountBalance[], options: { random?: RandomSource; digest?: Digest } = {}): BuiltTree {
  const digest = options.digest ?? nobleDigest;
  const randoms = randomIntegers(options.random);
  const pending: { account: AccountBalance; value: bigint }[] = [];
  for (const account of balances) for (const value of splitBalance(account.balance, randoms)) pending.push({ account, value });
  shuffle(pending, randoms);
  const leavesOf = new Map<string, { index: number; value: bigint }[]>();
  const leaves = pending.map(({ account, value }, index) => {
    const own = leavesOf.get(account.account) ?? [];
    own.push({ index, value });
    leavesOf.set(account.account, own);
    return { hash: leafHash(currency, index, value, account.nonce, digest), sum: value };
  });
  return { currency, levels: levelsFrom(leaves, digest), leavesOf };
}

const publishNode = (node: TreeNode): PublishedNode => [bytesToHex(node.hash), node.sum.toString()];

export function publishTree(tree: Pick<BuiltTree, 'currency' | 'levels'>, decimals: number): PublishedTree {
  const root = rootOf(tree.levels);
  return {
    currency: tree.currency,
    decimals,
    root: { hash: bytesToHex(root.hash), sum: root.sum.toString() },
    leafCount: tree.levels[0]!.length,
    levels: tree.levels.map((level) => level.map(publishNode)),
  };
}

/**
 * The same tree as JSON text, exactly JSON.stringify(publishTree(tree, decimals)), written
 * directly: for a tree of millions of nodes the intermediate arrays cost more than the hashing.
 */
export function publishTreeJson(tree: Pick<BuiltTree, 'currency' | 'levels'>, decimals: number): string {
  const root = rootOf(tree.levels);
  const head = JSON.stringify({ currency: tree.currency, decimals, root: { hash: bytesToHex(root.hash), sum: root.sum.toString() }, leafCount: tree.levels[0]!.length });
  const levels = tree.levels.map((level) => `[${level.map((node) => `["${bytesToHex(node.hash)}","${node.sum}"]`).join(',')}]`);
  return `${head.slice(0, -1)},"levels":[${levels.join(',')}]}`;
}

/**
 * The server's own copy of a tree for answering paths without parsing the JSON: every level from
 * the leaves up, each node as its 32-byte hash followed by its amount in 16 bytes big-endian, so
 * the node at (level, position) is at a known byte offset (pathOffsets).
 */
export const PACKED_NODE_BYTES = 32 + AMOUNT_BYTES;

/** How many nodes each level of a tree of `leafCount` leaves has, from the leaves to the root. */
export function levelSizes(leafCount: number): number[] {
  const sizes = [leafCount];
  while (sizes[sizes.length - 1]! > 1) sizes.push(Math.ceil(sizes[sizes.length - 1]! / 2));
  return sizes;
}

export function packLevels(levels: readonly TreeNode[][]): Uint8Array {
  const packed = new Uint8Array(levels.reduce((n, level) => n + level.length, 0) * PACKED_NODE_BYTES);
  const packedView = new DataView(packed.buffer);
  let at = 0;
  for (const level of levels) {
    for (const node of level) {
      packed.set(node.hash, at);
      writeAmount(packedView, at + 32, node.sum);
      at += PACKED_NODE_BYTES;
    }
  }
  return packed;
}

/** Byte offsets in the packed levels of what leaf `index`'s proof reads: the leaf, then each level's sibling (null where the empty node stands in). */
export function pathOffsets(leafCount: number, index: number): { leaf: number; siblings: (number | null)[] } {
  const sizes = levelSizes(leafCount);
  const siblings: (number | null)[] = [];
  let start = 0;
  let position = index;
  for (const size of sizes.slice(0, -1)) {
    const sibling = position ^ 1;
    siblings.push(sibling < size ? (start + sibling) * PACKED_NODE_BYTES : null);
    start += size;
    position >>= 1;
  }
  return { leaf: index * PACKED_NODE_BYTES, siblings };
}

/** A packed node (PACKED_NODE_BYTES bytes) as published: [hash, amount]. */
export function unpackNode(bytes: Uint8Array): PublishedNode {
  const nodeView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [bytesToHex(bytes.subarray(0, 32)), ((nodeView.getBigUint64(32) << 64n) | nodeView.getBigUint64(40)).toString()];
}

export const EMPTY_PUBLISHED: PublishedNode = [bytesToHex(EMPTY_NODE.hash), '0'];

/** The siblings on the way from leaf `index` to the root, leaf level first. */
export function proofPath(levels: readonly (readonly PublishedNode[])[], index: number): PathStep[] {
  if (!Number.isInteger(index) || index < 0 || index >= (levels[0]?.length ?? 0)) throw new RangeError(`no leaf ${index}`);
  const path: PathStep[] = [];
  let position = index;
  for (const level of levels.slice(0, -1)) {
    path.push(level[position ^ 1] ?? publishNode(EMPTY_NODE));
    position >>= 1;
  }
  return path;
}

/** A published amount: a non-negative integer in minor units, below 2^128; null for anything else. */
export function parseAmount(text: unknown): bigint | null {
  if (typeof text !== 'string' || !/^(0|[1-9]\d{0,38})$/.test(text)) return null;
  const value = BigInt(text);
  return value <= MAX_AMOUNT ? value : null;
}

function parseNode(node: unknown): TreeNode | null {
  if (!Array.isArray(node) || node.length !== 2 || typeof node[0] !== 'string' || !/^[0-9a-f]{64}$/.test(node[0])) return null;
  const sum = parseAmount(node[1]);
  return sum === null ? null : { hash: hexToBytes(node[0]), sum };
}

export type PathCheckStep = {
  level: number;
  /** Which side of its parent the node on the path is. */
  side: 'left' | 'right';
  node: PublishedNode;
  sibling: PublishedNode;
  parent: PublishedNode;
  /** Both amounts are non-negative integers (the sibling's as published, the node's as computed). */
  nonNegative: boolean;
};

export type PathCheck = {
  /** Everything holds: the leaf is in the tree with this root, every amount on the way is valid. */
  ok: boolean;
  leaf: PublishedNode | null;
  steps: PathCheckStep[];
  /** Every step of the path was a hash with a non-negative amount, up to the top. */
  complete: boolean;
  /** The root the path leads to, and whether it is the published one (hash and amount). */
  computedRoot: PublishedNode | null;
  rootMatches: boolean;
  problems: string[];
};

/**
 * Checks one leaf's path: recomputes the leaf from its amount, index and the owner's nonce, then
 * every parent up to the root from the published siblings, requiring every amount on the way to
 * be a non-negative integer, and compares the result with the published root.
 */
export function verifyPath(
  leaf: { currency: string; index: number; value: string },
  nonceHex: string,
  path: readonly PathStep[],
  root: { hash: string; sum: string },
  digest: Digest = nobleDigest,
): PathCheck {
  const problems: string[] = [];
  const steps: PathCheckStep[] = [];
  const fail = (problem: string): PathCheck => ({ ok: false, leaf: null, steps, complete: false, computedRoot: null, rootMatches: false, problems: [...problems, problem] });
  const value = parseAmount(leaf.value);
  if (value === null) return fail(`the leaf's amount is not a non-negative integer: ${leaf.value}`);
  if (!/^[0-9a-f]{64}$/.test(nonceHex)) return fail('the nonce is not 32 bytes of hex');
  if (!Number.isInteger(leaf.index) || leaf.index < 0 || leaf.index >= 2 ** path.length) return fail(`leaf ${leaf.index} cannot be reached by a path of ${path.length} steps`);
  let node: TreeNode;
  try {
    node = { hash: leafHash(leaf.currency, leaf.index, value, hexToBytes(nonceHex), digest), sum: value };
  } catch (error) {
    return fail((error as Error).message);
  }
  const leafNode = publishNode(node);
  let position = leaf.index;
  for (const [level, step] of path.entries()) {
    const sibling = parseNode(step);
    if (!sibling) {
      problems.push(`level ${level}: the sibling is not a hash with a non-negative integer amount`);
      return { ok: false, leaf: leafNode, steps, complete: false, computedRoot: null, rootMatches: false, problems };
    }
    const side = position % 2 === 0 ? 'left' : 'right';
    let parent: TreeNode;
    try {
      parent = side === 'left' ? parentOf(node, sibling, digest) : parentOf(sibling, node, digest);
    } catch (error) {
      problems.push(`level ${level}: ${(error as Error).message}`);
      return { ok: false, leaf: leafNode, steps, complete: false, computedRoot: null, rootMatches: false, problems };
    }
    steps.push({ level, side, node: publishNode(node), sibling: publishNode(sibling), parent: publishNode(parent), nonNegative: node.sum >= 0n && sibling.sum >= 0n });
    node = parent;
    position >>= 1;
  }
  const computedRoot = publishNode(node);
  const rootMatches = computedRoot[0] === root.hash && computedRoot[1] === root.sum;
  if (!rootMatches) problems.push('the path does not lead to the published root');
  return { ok: problems.length === 0, leaf: leafNode, steps, complete: true, computedRoot, rootMatches, problems };
}

export type TreeCheck = {
  currency: string;
  ok: boolean;
  leafCount: number;
  /** The root's amount: the total owed in minor units (when the tree holds). */
  total: string | null;
  problems: string[];
};

const MAX_PROBLEMS = 20;

/**
 * Checks a whole published tree: every amount is a non-negative integer, every node is the parent
 * of the two below it (hash and amount), each level is half the one below (rounded up), and the
 * top is the published root.
 */
export function verifyTree(tree: PublishedTree, digest: Digest = nobleDigest): TreeCheck {
  const problems: string[] = [];
  const report = (problem: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(problem);
    else if (problems.length === MAX_PROBLEMS) problems.push('… (more problems not listed)');
  };
  const levels = Array.isArray(tree?.levels) ? tree.levels : [];
  const currency = typeof tree?.currency === 'string' ? tree.currency : '?';
  if (levels.length === 0 || !Array.isArray(levels[0]) || levels[0].length === 0) return { currency, ok: false, leafCount: 0, total: null, problems: ['the tree has no leaves'] };
  if (tree.leafCount !== levels[0].length) report(`leafCount says ${tree.leafCount}, level 0 has ${levels[0].length} leaves`);
  let below: TreeNode[] = [];
  for (const [i, published] of levels[0].entries()) {
    const node = parseNode(published);
    if (!node) report(`leaf ${i} is not a hash with a non-negative integer amount`);
    below.push(node ?? EMPTY_NODE);
  }
  for (let l = 1; l < levels.length; l++) {
    const level = levels[l]!;
    const expected = Math.ceil(below.length / 2);
    if (!Array.isArray(level) || level.length !== expected) {
      report(`level ${l} has ${Array.isArray(level) ? level.length : 'no'} nodes, not ${expected}`);
      return { currency, ok: false, leafCount: levels[0].length, total: null, problems };
    }
    const next: TreeNode[] = [];
    for (let i = 0; i < expected; i++) {
      let computed: TreeNode;
      try {
        computed = parentOf(below[2 * i]!, below[2 * i + 1] ?? EMPTY_NODE, digest);
      } catch (error) {
        report(`level ${l} node ${i}: ${(error as Error).message}`);
        return { currency, ok: false, leafCount: levels[0].length, total: null, problems };
      }
      const node = parseNode(level[i]);
      if (!node) report(`level ${l} node ${i} is not a hash with a non-negative integer amount`);
      else if (bytesToHex(node.hash) !== bytesToHex(computed.hash) || node.sum !== computed.sum) report(`level ${l} node ${i} is not the parent of the two nodes below it`);
      next.push(computed);
    }
    below = next;
  }
  if (below.length !== 1) report(`the top level has ${below.length} nodes, not one root`);
  const root = below[0]!;
  if (tree.root?.hash !== bytesToHex(root.hash) || tree.root?.sum !== root.sum.toString()) report('the published root is not the top of the tree');
  return { currency, ok: problems.length === 0, leafCount: levels[0].length, total: problems.length === 0 ? root.sum.toString() : null, problems };
}

export type InclusionCheck = {
  ok: boolean;
  /** The whole published tree holds together (verifyTree). */
  tree: TreeCheck;
  /** The root the user was given is the published tree's root. */
  rootMatches: boolean;
  /** The user's leaves added up, in minor units. */
  balance: string;
  leaves: {
    index: number;
    value: string;
    /** The leaf recomputed from its amount, index and the nonce is the published leaf at that index. */
    foundInTree: boolean;
    /** Every sibling of the path is the published node at its place. */
    siblingsPublished: boolean;
    path: PathCheck;
  }[];
};

/**
 * What the wallet's proof page checks for one currency: the whole published tree, then each of
 * the user's leaves — found at its place in the tree, its path made of the tree's own nodes, and
 * leading (amounts added, none negative) to the published root.
 */
export function verifyInclusion(
  proof: { currency: string; root: { hash: string; sum: string }; leaves: readonly LeafProof[] },
  nonceHex: string,
  tree: PublishedTree,
  digest: Digest = nobleDigest,
): InclusionCheck {
  const treeCheck = verifyTree(tree, digest);
  const rootMatches = proof.root.hash === tree.root?.hash && proof.root.sum === tree.root?.sum;
  const empty = publishNode(EMPTY_NODE);
  const leaves = proof.leaves.map((leaf) => {
    const path = verifyPath({ currency: proof.currency, index: leaf.index, value: leaf.value }, nonceHex, leaf.path, tree.root, digest);
    const published = tree.levels[0]?.[leaf.index];
    const foundInTree = !!path.leaf && !!published && path.leaf[0] === published[0] && path.leaf[1] === published[1];
    let position = leaf.index;
    const siblingsPublished =
      leaf.path.length === tree.levels.length - 1 &&
      leaf.path.every((step, level) => {
        const expected = tree.levels[level]?.[position ^ 1] ?? empty;
        position >>= 1;
        return step[0] === expected[0] && step[1] === expected[1];
      });
    return { index: leaf.index, value: leaf.value, foundInTree, siblingsPublished, path };
  });
  const balance = proof.leaves.reduce((sum, leaf) => sum + (parseAmount(leaf.value) ?? 0n), 0n).toString();
  const ok = treeCheck.ok && rootMatches && leaves.length > 0 && leaves.every((l) => l.foundInTree && l.siblingsPublished && l.path.ok);
  return { ok, tree: treeCheck, rootMatches, balance, leaves };
}

/** Every tree of a published snapshot (what `npm run verify:liabilities` prints). */
export function verifySnapshot(snapshot: PublishedSnapshot, digest: Digest = nobleDigest): { ok: boolean; trees: TreeCheck[]; problems: string[] } {
  const problems: string[] = [];
  if (snapshot?.format !== LIABILITIES_FORMAT) problems.push(`not a ${LIABILITIES_FORMAT} file`);
  // No trees is a valid snapshot: nobody held anything, so nothing is owed.
  if (!Array.isArray(snapshot?.trees)) problems.push('the snapshot has no list of trees');
  const trees = Array.isArray(snapshot?.trees) ? snapshot.trees.map((tree) => verifyTree(tree, digest)) : [];
  return { ok: problems.length === 0 && trees.every((t) => t.ok), trees, problems };
}
