import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * Proof of liabilities, format muntly-liabilities-2: a Merkle sum tree per currency whose root
 * alone is published. Shared by the API (which builds the trees), the browser and
 * `npm run verify:liabilities` (which check them), so it uses no Node API. The byte-level format,
 * with test vectors, is docs/proof-format.md; tools/verify_proof.py re-implements it from there.
 *
 * How a snapshot is made (server/src/modules/liabilities):
 * - everything owed to a customer is an owner's amount: a wallet balance, a send or SEPA payout not
 *   yet paid, a paid order not yet delivered, an unmatched payment (issue 32, "Complete");
 * - each amount is split at random into a few parts (MIN_LEAVES to MAX_LEAVES), each a leaf;
 * - the leaves are placed at random among a power-of-two number of places, at least
 *   MIN_LEAF_COUNT: the places left over are padding of amount 0 (paddingNode), which looks like
 *   any other subtree, so the published leaf count says only the order of magnitude of how many
 *   hold a currency;
 * - each leaf commits to its currency, place, amount and its owner's commitment, a hash of the
 *   owner's id and a secret nonce of this snapshot: only the owner can recognise their leaves, and
 *   the operator cannot show two owners one leaf (each checks their own id is in it);
 * - each node commits to both children's hashes and amounts and carries their sum.
 * Published: per currency the root's hash and amount (the total owed), the leaf count and the
 * decimals. Nothing below the root is public: an owner gets their own leaves' paths.
 */

export const LIABILITIES_FORMAT = 'muntly-liabilities-2';

/**
 * How many leaves an amount is split into (fewer for an amount of 1): two, so that the leaf beside
 * one of a customer's own, which their path shows them, is never another customer's whole amount.
 * More parts would cost more hashes and hide nothing more.
 */
export const MIN_LEAVES = 2;
export const MAX_LEAVES = 2;
/** Every tree has at least this many leaves (2^12), padded: a handful of holders looks like a thousand. */
export const MIN_LEAF_COUNT = 4096;

const AMOUNT_BYTES = 16;
const MAX_AMOUNT = (1n << 128n) - 1n;
const LEAF_TAG = 0x00;
const NODE_TAG = 0x01;
const OWNER_TAG = 0x02;
export const NONCE_BYTES = 32;
const HASH_BYTES = 32;

/** SHA-256 of some bytes: @noble/hashes by default; the server may pass Node's, which is faster. */
export type Digest = (data: Uint8Array) => Uint8Array;
/** Cryptographically random bytes (the browser's and Node's crypto.getRandomValues by default). */
export type RandomSource = (length: number) => Uint8Array;

export const nobleDigest: Digest = (data) => sha256(data);
const defaultRandom: RandomSource = (length) => randomBytes(length);

export type TreeNode = { hash: Uint8Array; sum: bigint };
/** A node as an owner's path gives it: [hash in hex, amount in minor units as a decimal string]. */
export type PublishedNode = [hash: string, sum: string];

/** What is published of a currency's tree. */
export type PublishedTree = {
  currency: string;
  decimals: number;
  /** A power of two, at least MIN_LEAF_COUNT: every path has log2(leafCount) steps. */
  leafCount: number;
  root: { hash: string; sum: string };
};

export type PublishedSnapshot = {
  format: typeof LIABILITIES_FORMAT;
  snapshotId: number;
  takenAt: string;
  trees: PublishedTree[];
  /** The reserves side (domain/contracts/liabilities.ts Reserves); not part of the digest. */
  reserves?: unknown;
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
const scratch = new Uint8Array(1 + 2 * (HASH_BYTES + AMOUNT_BYTES) + 64);
const view = new DataView(scratch.buffer);

/** An owner's commitment: SHA-256(0x02 ‖ length of the id in bytes ‖ the id in UTF-8 ‖ nonce). */
export function ownerCommitment(owner: string, nonce: Uint8Array, digest: Digest = nobleDigest): Uint8Array {
  const id = utf8ToBytes(owner);
  if (id.length === 0 || id.length > 255) throw new RangeError('an owner id is 1 to 255 bytes');
  if (nonce.length !== NONCE_BYTES) throw new RangeError('a nonce is 32 bytes');
  const data = new Uint8Array(2 + id.length + NONCE_BYTES);
  data[0] = OWNER_TAG;
  data[1] = id.length;
  data.set(id, 2);
  data.set(nonce, 2 + id.length);
  return digest(data);
}

/** A leaf's hash: SHA-256(0x00 ‖ currency ‖ place as 4 bytes ‖ amount as 16 bytes ‖ owner's commitment). */
export function leafHash(
  currency: string,
  index: number,
  value: bigint,
  commitment: Uint8Array,
  digest: Digest = nobleDigest,
): Uint8Array {
  setWords(leafWords, 0, value);
  return hashLeaf(currencyBytes(currency), index, leafWords, 0, commitment, digest);
}
const leafWords = new Uint32Array(4);

/** leafHash with the amount given as four 32-bit words (setWords), as the build holds it. */
function hashLeaf(
  code: Uint8Array,
  index: number,
  words: Uint32Array,
  wordsAt: number,
  commitment: Uint8Array,
  digest: Digest,
): Uint8Array {
  if (!Number.isInteger(index) || index < 0 || index > 0xffffffff)
    throw new RangeError(`leaf index out of range: ${index}`);
  if (commitment.length !== HASH_BYTES) throw new RangeError('a commitment is 32 bytes');
  const data = scratch.subarray(0, 1 + code.length + 4 + AMOUNT_BYTES + HASH_BYTES);
  data[0] = LEAF_TAG;
  data.set(code, 1);
  view.setUint32(1 + code.length, index);
  for (let w = 0; w < 4; w++) view.setUint32(5 + code.length + 4 * w, words[wordsAt + w]!);
  data.set(commitment, 5 + code.length + AMOUNT_BYTES);
  return digest(data);
}

/** The parent of two nodes: its amount is theirs added, its hash commits to both hashes and amounts. */
export function parentOf(left: TreeNode, right: TreeNode, digest: Digest = nobleDigest): TreeNode {
  const data = scratch.subarray(0, 1 + 2 * (HASH_BYTES + AMOUNT_BYTES));
  data[0] = NODE_TAG;
  data.set(left.hash, 1);
  writeAmount(view, 33, left.sum);
  data.set(right.hash, 33 + AMOUNT_BYTES);
  writeAmount(view, 65 + AMOUNT_BYTES, right.sum);
  return { hash: digest(data), sum: left.sum + right.sum };
}

/**
 * Random integers from a random source, unbiased (rejection sampling), read from a pool. The
 * numbers are read from the pool's bytes in place: a large tree draws millions of them.
 */
export function randomIntegers(random: RandomSource = defaultRandom) {
  let pool: Uint8Array = new Uint8Array(0);
  let at = 0;
  /** Where the next `n` bytes start in the pool. */
  const take = (n: number): number => {
    if (at + n > pool.length) {
      pool = random(Math.max(65536, n));
      at = 0;
    }
    at += n;
    return at - n;
  };
  /** A uniform bigint in [0, below): `length` bytes big-endian, masked to the bits of `below`, until one is below. */
  const bigintBelow = (below: bigint): bigint => {
    if (below <= 0n) throw new RangeError('empty range');
    if (below <= 0xffffffffffffn) {
      // Below 2^48, the same bytes read as a number (exact): no bigint per draw.
      const limit = Number(below);
      const high = Math.floor(limit / 2 ** 24);
      const bits = high > 0 ? 56 - Math.clz32(high) : 32 - Math.clz32(limit);
      const length = Math.ceil(bits / 8);
      const mask = 2 ** bits;
      for (;;) {
        let candidate = 0;
        const from = take(length);
        for (let i = 0; i < length; i++) candidate = candidate * 256 + pool[from + i]!;
        candidate %= mask;
        if (candidate < limit) return BigInt(candidate);
      }
    }
    const bits = below.toString(2).length;
    const length = Math.ceil(bits / 8);
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      const from = take(length);
      const candidate = BigInt(`0x${bytesToHex(pool.subarray(from, from + length))}`) & mask;
      if (candidate < below) return candidate;
    }
  };
  /** A uniform integer in [0, below), below at most 2^32. */
  const intBelow = (below: number): number => {
    if (below <= 0 || below > 2 ** 32) throw new RangeError('range out of bounds');
    const limit = Math.floor(2 ** 32 / below) * below;
    for (;;) {
      const b = take(4);
      const candidate = ((pool[b]! << 24) >>> 0) + (pool[b + 1]! << 16) + (pool[b + 2]! << 8) + pool[b + 3]!;
      if (candidate < limit) return candidate % below;
    }
  };
  const bytes = (n: number) => {
    const from = take(n);
    return pool.slice(from, from + n);
  };
  return { bigintBelow, intBelow, bytes };
}
type Randoms = ReturnType<typeof randomIntegers>;

/**
 * Splits an amount at random into MIN_LEAVES to MAX_LEAVES parts that add up to it. The cuts are
 * distinct points strictly inside the amount, so every part is at least 1 and none is the whole
 * (an amount smaller than the number of parts gets as many parts as it has units).
 */
export function splitBalance(balance: bigint, randoms: Randoms = randomIntegers()): bigint[] {
  if (balance <= 0n) throw new RangeError('only a positive amount is owed');
  let parts = MIN_LEAVES + randoms.intBelow(MAX_LEAVES - MIN_LEAVES + 1);
  if (balance < BigInt(parts)) parts = Number(balance);
  if (parts === 2) {
    const cut = 1n + randoms.bigintBelow(balance - 1n);
    return [cut, balance - cut];
  }
  const cuts = new Set<bigint>();
  while (cuts.size < parts - 1) cuts.add(1n + randoms.bigintBelow(balance - 1n));
  const points = [0n, ...[...cuts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), balance];
  return points.slice(1).map((point, i) => point - points[i]!);
}

/** The number of leaves of a tree holding `leaves` real ones: the next power of two, at least MIN_LEAF_COUNT. */
export function paddedLeafCount(leaves: number): number {
  let count = MIN_LEAF_COUNT;
  while (count < leaves) count *= 2;
  return count;
}

const isPowerOfTwo = (n: number) => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
export const pathLength = (leafCount: number) => Math.log2(leafCount);

/**
 * Padding, the server's side only: a node whose places hold no real leaf (a padding leaf, or a
 * whole subtree of them) has amount 0 and the hash SHA-256(0x03 ‖ seed ‖ currency ‖ level ‖
 * place), from a secret seed of the tree. To anyone without the seed it is as random as a leaf's
 * hash, it costs one hash however large the empty subtree, and the server can derive it again to
 * answer a path instead of storing it.
 */
const PAD_TAG = 0x03;
export function paddingNode(
  seed: Uint8Array,
  currency: string,
  level: number,
  index: number,
  digest: Digest = nobleDigest,
): TreeNode {
  const code = currencyBytes(currency);
  const data = scratch.subarray(0, 1 + 32 + code.length + 1 + 4);
  data[0] = PAD_TAG;
  data.set(seed, 1);
  data.set(code, 33);
  data[33 + code.length] = level;
  view.setUint32(34 + code.length, index);
  return { hash: digest(data), sum: 0n };
}

/**
 * The server keeps the levels from BLOCK_LEVELS up whole (1/256 of the places) and the real
 * leaves; a path's lower steps are computed again from the leaves of its block of 2^BLOCK_LEVELS
 * places (at most 255 hashes).
 */
export const BLOCK_LEVELS = 8;

/** An owner's amount in one currency and their commitment (ownerCommitment) in this snapshot. */
export type OwnerAmount = { owner: string; amount: bigint; commitment: Uint8Array };
export type PlacedLeaf = { index: number; node: TreeNode };
export type BuiltTree = {
  currency: string;
  leafCount: number;
  root: TreeNode;
  /** The levels from BLOCK_LEVELS up, whole, padding included, packed (what the server stores; upperOffsets finds a node). */
  nodes: Uint8Array;
  /** The real leaves in the order of their places, packed (PACKED_LEAF_BYTES each), and where each block's leaves start (4 bytes each, one more at the end). */
  leaves: Uint8Array;
  directory: Uint8Array;
  /** Each owner's leaves: their places and amounts, in the order of their places (made when first read). */
  readonly leavesOf: Map<string, { index: number; value: bigint }[]>;
  /** The same, as the build made them: piece `i` is owned by `pieceOwners[i]` and sits at `piecePlaces[i]`; an owner's pieces are consecutive. */
  pieceOwners: readonly string[];
  piecePlaces: Uint32Array;
  /** The secret the padding derives from (paddingNode). */
  paddingSeed: Uint8Array;
};

/**
 * A level of a tree as far as it is not padding, in flat arrays (a large tree has millions of
 * nodes, and an object per node kept the garbage collector busier than the hashing): node `i` is
 * at place `places[i]` (ascending), its hash is `hashes[32i..]`, its amount four 32-bit words,
 * most significant first, at `sums[4i..]`.
 */
type FlatLevel = { length: number; places: Uint32Array; hashes: Uint8Array; sums: Uint32Array };
const flatLevel = (length: number): FlatLevel => ({
  length,
  places: new Uint32Array(length),
  hashes: new Uint8Array(length * HASH_BYTES),
  sums: new Uint32Array(length * 4),
});
const ZERO_SUM = new Uint32Array(4);
const WORD = 2 ** 32;

/** Writes `value` (0 to 2^128 - 1) as four 32-bit words, most significant first. */
function setWords(words: Uint32Array, at: number, value: bigint): void {
  if (value < 0n || value > MAX_AMOUNT) throw new RangeError(`amount out of range: ${value}`);
  if (value <= 0x1fffffffffffffn) {
    const n = Number(value);
    words[at] = 0;
    words[at + 1] = 0;
    words[at + 2] = Math.floor(n / WORD);
    words[at + 3] = n % WORD;
    return;
  }
  for (let i = 3; i >= 0; i--, value >>= 32n) words[at + i] = Number(value & 0xffffffffn);
}
/** The parent's input (0x01 ‖ left hash ‖ left amount ‖ right hash ‖ right amount), written apart from `scratch`, which paddingNode uses. */
const parentInput = new Uint8Array(1 + 2 * (HASH_BYTES + AMOUNT_BYTES));
const parentView = new DataView(parentInput.buffer);
parentInput[0] = NODE_TAG;
function writeSide(at: number, hashes: Uint8Array, hashAt: number, sums: Uint32Array, sumAt: number): void {
  parentInput.set(hashes.subarray(hashAt, hashAt + HASH_BYTES), at);
  for (let w = 0; w < 4; w++) parentView.setUint32(at + HASH_BYTES + 4 * w, sums[sumAt + w]!);
}

/** The level above a flat level (sparseParents, in flat arrays): each present node with its sibling, present or padding. */
function flatParents(
  level: FlatLevel,
  height: number,
  pad: (level: number, index: number) => TreeNode,
  digest: Digest,
): FlatLevel {
  const up = flatLevel(level.length);
  let n = 0;
  for (let i = 0; i < level.length; i++) {
    const place = level.places[i]!;
    // The node's sibling: the next node if it is present, else the padding of that place (-1).
    const even = place % 2 === 0;
    const pairedNext = even && i + 1 < level.length && level.places[i + 1] === place + 1;
    const left = even ? i : -1;
    const right = even ? (pairedNext ? i + 1 : -1) : i;
    const padding = pairedNext ? null : pad(height, place ^ 1);
    if (pairedNext) i++;
    if (left >= 0) writeSide(1, level.hashes, HASH_BYTES * left, level.sums, 4 * left);
    else writeSide(1, padding!.hash, 0, ZERO_SUM, 0);
    if (right >= 0) writeSide(1 + HASH_BYTES + AMOUNT_BYTES, level.hashes, HASH_BYTES * right, level.sums, 4 * right);
    else writeSide(1 + HASH_BYTES + AMOUNT_BYTES, padding!.hash, 0, ZERO_SUM, 0);
    up.places[n] = place >>> 1;
    up.hashes.set(digest(parentInput), HASH_BYTES * n);
    // The parent's amount: both added, word by word with the carry.
    let carry = 0;
    for (let w = 3; w >= 0; w--) {
      const total = (left >= 0 ? level.sums[4 * left + w]! : 0) + (right >= 0 ? level.sums[4 * right + w]! : 0) + carry;
      carry = total >= WORD ? 1 : 0;
      up.sums[4 * n + w] = total - carry * WORD;
    }
    if (carry) throw new RangeError('amount out of range: a total of 2^128 or more');
    n++;
  }
  up.length = n;
  return up;
}

/** Writes a node (hash, then amount as 16 bytes big-endian) into packed bytes at `at`. */
function packNode(
  into: DataView,
  bytes: Uint8Array,
  at: number,
  hash: Uint8Array,
  hashAt: number,
  sums: Uint32Array,
  sumAt: number,
): void {
  bytes.set(hash.subarray(hashAt, hashAt + HASH_BYTES), at);
  for (let w = 0; w < 4; w++) into.setUint32(at + HASH_BYTES + 4 * w, sums[sumAt + w]!);
}

/** Builds a currency's tree from every owner's amount (see the top of this file). Amounts of 0 get no leaf. */
export function buildTree(
  currency: string,
  owners: readonly OwnerAmount[],
  options: { random?: RandomSource; digest?: Digest } = {},
): BuiltTree {
  const digest = options.digest ?? nobleDigest;
  const randoms = randomIntegers(options.random);
  const pieceOwner: OwnerAmount[] = [];
  const pieceValue: bigint[] = [];
  for (const owner of owners) {
    if (owner.amount <= 0n) continue;
    for (const value of splitBalance(owner.amount, randoms)) {
      pieceOwner.push(owner);
      pieceValue.push(value);
    }
  }
  const pieces = pieceValue.length;
  const code = currencyBytes(currency);
  const count = paddedLeafCount(pieces);
  // The real leaves take `pieces` places drawn at random from all `count` (a partial Fisher–Yates).
  const places = new Uint32Array(count);
  for (let i = 0; i < count; i++) places[i] = i;
  for (let i = 0; i < pieces; i++) {
    const j = i + randoms.intBelow(count - i);
    const swap = places[i]!;
    places[i] = places[j]!;
    places[j] = swap;
  }
  // Which piece sits at each place (-1: padding), to walk the leaves in the order of their places.
  const pieceAt = new Int32Array(count).fill(-1);
  for (let i = 0; i < pieces; i++) pieceAt[places[i]!] = i;
  const level0 = flatLevel(pieces);
  const packedLeaves = new Uint8Array(pieces * PACKED_LEAF_BYTES);
  const leavesView = new DataView(packedLeaves.buffer);
  const blocks = count >> BLOCK_LEVELS;
  const directory = new Uint8Array((blocks + 1) * 4);
  const directoryView = new DataView(directory.buffer);
  for (let place = 0, n = 0; place < count; place++) {
    if (place % (1 << BLOCK_LEVELS) === 0) directoryView.setUint32(4 * (place >> BLOCK_LEVELS), n);
    const piece = pieceAt[place]!;
    if (piece < 0) continue;
    const owner = pieceOwner[piece]!;
    const value = pieceValue[piece]!;
    level0.places[n] = place;
    setWords(level0.sums, 4 * n, value);
    level0.hashes.set(hashLeaf(code, place, level0.sums, 4 * n, owner.commitment, digest), HASH_BYTES * n);
    leavesView.setUint32(PACKED_LEAF_BYTES * n, place);
    packNode(leavesView, packedLeaves, PACKED_LEAF_BYTES * n + 4, level0.hashes, HASH_BYTES * n, level0.sums, 4 * n);
    n++;
  }
  directoryView.setUint32(4 * blocks, pieces);
  const paddingSeed = randoms.bytes(32);
  const pad = (level: number, index: number) => paddingNode(paddingSeed, currency, level, index, digest);
  // Up to the root, only where a real leaf is below; from BLOCK_LEVELS up, each level is also
  // stored whole, its empty places filled with their padding nodes.
  const height = Math.log2(count);
  const sizes = levelSizes(count >> BLOCK_LEVELS);
  const nodes = new Uint8Array(sizes.reduce((a, b) => a + b, 0) * PACKED_NODE_BYTES);
  const nodesView = new DataView(nodes.buffer);
  let start = 0;
  let level = level0;
  for (let at = 0; at <= height; at++) {
    if (at >= BLOCK_LEVELS) {
      const size = count >> at;
      let i = 0;
      for (let place = 0; place < size; place++) {
        const offset = (start + place) * PACKED_NODE_BYTES;
        if (i < level.length && level.places[i] === place) {
          packNode(nodesView, nodes, offset, level.hashes, HASH_BYTES * i, level.sums, 4 * i);
          i++;
        } else packNode(nodesView, nodes, offset, pad(at, place).hash, 0, ZERO_SUM, 0);
      }
      start += size;
    }
    if (at < height) level = flatParents(level, at, pad, digest);
  }
  const rootAt = nodes.length - PACKED_NODE_BYTES;
  const root = {
    hash: nodes.slice(rootAt, rootAt + HASH_BYTES),
    sum: (nodesView.getBigUint64(rootAt + HASH_BYTES) << 64n) | nodesView.getBigUint64(rootAt + HASH_BYTES + 8),
  };
  const pieceOwners = pieceOwner.map((o) => o.owner);
  const piecePlaces = places.slice(0, pieces);
  let leavesOf: BuiltTree['leavesOf'] | undefined;
  return {
    currency,
    leafCount: count,
    root,
    nodes,
    leaves: packedLeaves,
    directory,
    pieceOwners,
    piecePlaces,
    get leavesOf() {
      if (!leavesOf) {
        leavesOf = new Map();
        for (let i = 0; i < pieces; i++) {
          const own = leavesOf.get(pieceOwners[i]!) ?? leavesOf.set(pieceOwners[i]!, []).get(pieceOwners[i]!)!;
          own.push({ index: piecePlaces[i]!, value: pieceValue[i]! });
        }
        for (const own of leavesOf.values()) own.sort((a, b) => a.index - b.index);
      }
      return leavesOf;
    },
    paddingSeed,
  };
}

/** The levels of the sparse build in objects, for a path's lower steps (blockPath: at most 255 nodes). */
type SparseLevel = { places: number[]; nodes: TreeNode[] };

/** The level above a sparse level: each present node with its sibling (present, or padding). */
function sparseParents(
  level: SparseLevel,
  height: number,
  pad: (level: number, index: number) => TreeNode,
  digest: Digest,
  onPair?: (left: TreeNode, right: TreeNode, place: number) => void,
): SparseLevel {
  const places: number[] = [];
  const nodes: TreeNode[] = [];
  for (let i = 0; i < level.places.length; i++) {
    const place = level.places[i]!;
    let left: TreeNode;
    let right: TreeNode;
    if (place % 2 === 0) {
      left = level.nodes[i]!;
      if (level.places[i + 1] === place + 1) right = level.nodes[++i]!;
      else right = pad(height, place + 1);
    } else {
      left = pad(height, place - 1);
      right = level.nodes[i]!;
    }
    onPair?.(left, right, place >> 1);
    places.push(place >> 1);
    nodes.push(parentOf(left, right, digest));
  }
  return { places, nodes };
}

/**
 * The lower BLOCK_LEVELS steps of leaf `index`'s path: its block's real leaves hashed up again,
 * the padding derived from the seed.
 */
export function blockPath(
  currency: string,
  index: number,
  blockLeaves: readonly PlacedLeaf[],
  paddingSeed: Uint8Array,
  digest: Digest = nobleDigest,
): PathStep[] {
  const pad = (level: number, place: number) => paddingNode(paddingSeed, currency, level, place, digest);
  const steps: PathStep[] = [];
  let position = index;
  let level: SparseLevel = { places: blockLeaves.map((l) => l.index), nodes: blockLeaves.map((l) => l.node) };
  for (let height = 0; height < BLOCK_LEVELS; height++) {
    const mine = position >> 1;
    level = sparseParents(level, height, pad, digest, (left, right, place) => {
      if (place === mine) steps.push(publishNode(position % 2 === 0 ? right : left));
    });
    position = mine;
  }
  return steps;
}

export function publishTree(tree: Pick<BuiltTree, 'currency' | 'leafCount' | 'root'>, decimals: number): PublishedTree {
  return {
    currency: tree.currency,
    decimals,
    leafCount: tree.leafCount,
    root: { hash: bytesToHex(tree.root.hash), sum: tree.root.sum.toString() },
  };
}

/**
 * The snapshot's digest: SHA-256 of its statement as UTF-8 text, one line each, "\n" after every
 * line: the format, the snapshot id, the instant, then per tree in the order of the currency codes
 * "<currency> <decimals> <leafCount> <root hash> <root amount>". The proofs of control sign it.
 */
export function snapshotStatement(snapshot: Pick<PublishedSnapshot, 'snapshotId' | 'takenAt' | 'trees'>): string {
  const trees = [...snapshot.trees].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0));
  return [
    LIABILITIES_FORMAT,
    String(snapshot.snapshotId),
    snapshot.takenAt,
    ...trees.map((t) => `${t.currency} ${t.decimals} ${t.leafCount} ${t.root.hash} ${t.root.sum}`),
  ]
    .map((line) => `${line}\n`)
    .join('');
}
export const snapshotDigest = (
  snapshot: Pick<PublishedSnapshot, 'snapshotId' | 'takenAt' | 'trees'>,
  digest: Digest = nobleDigest,
): string => bytesToHex(digest(utf8ToBytes(snapshotStatement(snapshot))));

/** A node packed: its 32-byte hash, then its amount in 16 bytes big-endian. */
export const PACKED_NODE_BYTES = HASH_BYTES + AMOUNT_BYTES;
/** A leaf packed: its place in 4 bytes, then the node. */
export const PACKED_LEAF_BYTES = 4 + PACKED_NODE_BYTES;

/** How many nodes each level of a tree of `leafCount` leaves has, from the leaves to the root. */
export function levelSizes(leafCount: number): number[] {
  const sizes = [leafCount];
  while (sizes[sizes.length - 1]! > 1) sizes.push(Math.ceil(sizes[sizes.length - 1]! / 2));
  return sizes;
}

export function unpackLeaves(bytes: Uint8Array): PlacedLeaf[] {
  const bytesView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: PlacedLeaf[] = [];
  for (let at = 0; at + PACKED_LEAF_BYTES <= bytes.length; at += PACKED_LEAF_BYTES) {
    const node = unpackNode(bytes.subarray(at + 4, at + PACKED_LEAF_BYTES));
    out.push({ index: bytesView.getUint32(at), node: { hash: hexToBytes(node[0]), sum: BigInt(node[1]) } });
  }
  return out;
}

/** Byte offsets, in the packed upper levels, of the siblings of leaf `index`'s path from BLOCK_LEVELS up. */
export function upperOffsets(leafCount: number, index: number): number[] {
  const sizes = levelSizes(leafCount >> BLOCK_LEVELS);
  const offsets: number[] = [];
  let start = 0;
  let position = index >> BLOCK_LEVELS;
  for (const size of sizes.slice(0, -1)) {
    offsets.push((start + (position ^ 1)) * PACKED_NODE_BYTES);
    start += size;
    position >>= 1;
  }
  return offsets;
}

/** A packed node (PACKED_NODE_BYTES bytes): [hash, amount]. */
export function unpackNode(bytes: Uint8Array): PublishedNode {
  const nodeView = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [
    bytesToHex(bytes.subarray(0, HASH_BYTES)),
    ((nodeView.getBigUint64(HASH_BYTES) << 64n) | nodeView.getBigUint64(HASH_BYTES + 8)).toString(),
  ];
}

/** The real leaves of a built tree, in the order of their places (tests and tools). */
export const placedLeaves = (tree: Pick<BuiltTree, 'leaves'>): PlacedLeaf[] => unpackLeaves(tree.leaves);

/**
 * The siblings on the way from leaf `index` to the root, leaf level first, from what the server
 * stores of a tree (the packed leaves, their directory and the upper levels): the lower steps
 * computed again from the leaves of the block, the upper ones read at their offsets.
 */
export function proofPath(
  tree: Pick<BuiltTree, 'currency' | 'leafCount' | 'nodes' | 'leaves' | 'directory' | 'paddingSeed'>,
  index: number,
  digest: Digest = nobleDigest,
): PathStep[] {
  if (!Number.isInteger(index) || index < 0 || index >= tree.leafCount) throw new RangeError(`no leaf ${index}`);
  const block = index >> BLOCK_LEVELS;
  const directory = new DataView(tree.directory.buffer, tree.directory.byteOffset, tree.directory.byteLength);
  const inBlock = unpackLeaves(
    tree.leaves.subarray(
      directory.getUint32(4 * block) * PACKED_LEAF_BYTES,
      directory.getUint32(4 * block + 4) * PACKED_LEAF_BYTES,
    ),
  );
  const path = blockPath(tree.currency, index, inBlock, tree.paddingSeed, digest);
  for (const offset of upperOffsets(tree.leafCount, index))
    path.push(unpackNode(tree.nodes.subarray(offset, offset + PACKED_NODE_BYTES)));
  return path;
}

/** A published amount: a non-negative integer in minor units, below 2^128; null for anything else. */
export function parseAmount(text: unknown): bigint | null {
  if (typeof text !== 'string' || !/^(0|[1-9]\d{0,38})$/.test(text)) return null;
  const value = BigInt(text);
  return value <= MAX_AMOUNT ? value : null;
}

const HEX_32 = /^[0-9a-f]{64}$/;
const publishNode = (node: TreeNode): PublishedNode => [bytesToHex(node.hash), node.sum.toString()];

function parseNode(node: unknown): TreeNode | null {
  if (!Array.isArray(node) || node.length !== 2 || typeof node[0] !== 'string' || !HEX_32.test(node[0])) return null;
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
};

export type PathCheck = {
  /** Everything holds: the leaf is in the tree with this root, every amount on the way is valid. */
  ok: boolean;
  leaf: PublishedNode | null;
  steps: PathCheckStep[];
  /** The root the path leads to, and whether it is the published one (hash and amount). */
  computedRoot: PublishedNode | null;
  rootMatches: boolean;
  problems: string[];
};

/**
 * Checks one leaf's path: recomputes the leaf from its amount, place and the owner's commitment,
 * then every parent up to the root from the siblings (every amount a non-negative integer below
 * 2^128, one sibling per level of a tree of `tree.leafCount` leaves), and compares with the root.
 */
export function verifyPath(
  leaf: { currency: string; index: number; value: string },
  commitment: Uint8Array,
  path: readonly PathStep[],
  tree: Pick<PublishedTree, 'leafCount' | 'root'>,
  digest: Digest = nobleDigest,
): PathCheck {
  const problems: string[] = [];
  const steps: PathCheckStep[] = [];
  const fail = (problem: string, leafNode: PublishedNode | null = null): PathCheck => ({
    ok: false,
    leaf: leafNode,
    steps,
    computedRoot: null,
    rootMatches: false,
    problems: [...problems, problem],
  });
  const value = parseAmount(leaf.value);
  if (value === null) return fail(`the leaf's amount is not a non-negative integer: ${leaf.value}`);
  if (!isPowerOfTwo(tree.leafCount) || tree.leafCount < MIN_LEAF_COUNT)
    return fail(`a tree of ${tree.leafCount} leaves is not a power of two of at least ${MIN_LEAF_COUNT}`);
  if (path.length !== pathLength(tree.leafCount))
    return fail(
      `a tree of ${tree.leafCount} leaves needs a path of ${pathLength(tree.leafCount)} steps, not ${path.length}`,
    );
  if (!Number.isInteger(leaf.index) || leaf.index < 0 || leaf.index >= tree.leafCount)
    return fail(`leaf ${leaf.index} is not a place of a tree of ${tree.leafCount} leaves`);
  let node: TreeNode;
  try {
    node = { hash: leafHash(leaf.currency, leaf.index, value, commitment, digest), sum: value };
  } catch (error) {
    return fail((error as Error).message);
  }
  const leafNode = publishNode(node);
  let position = leaf.index;
  for (const [level, step] of path.entries()) {
    const sibling = parseNode(step);
    if (!sibling) return fail(`level ${level}: the sibling is not a hash with a non-negative integer amount`, leafNode);
    const side = position % 2 === 0 ? 'left' : 'right';
    let parent: TreeNode;
    try {
      parent = side === 'left' ? parentOf(node, sibling, digest) : parentOf(sibling, node, digest);
    } catch (error) {
      return fail(`level ${level}: ${(error as Error).message}`, leafNode);
    }
    steps.push({ level, side, node: publishNode(node), sibling: publishNode(sibling), parent: publishNode(parent) });
    node = parent;
    position >>= 1;
  }
  const computedRoot = publishNode(node);
  const rootMatches = computedRoot[0] === tree.root.hash && computedRoot[1] === tree.root.sum;
  if (!rootMatches) problems.push('the path does not lead to the published root');
  return { ok: problems.length === 0, leaf: leafNode, steps, computedRoot, rootMatches, problems };
}

export type InclusionCheck = {
  ok: boolean;
  /** The root the owner was given is the published tree's root (hash, amount and size). */
  rootMatches: boolean;
  /** The owner's leaves added up, in minor units. */
  amount: string;
  /** No place is given twice. */
  distinct: boolean;
  leaves: { index: number; value: string; path: PathCheck }[];
  problems: string[];
};

/**
 * What an owner checks for one currency: their commitment (from their own id and nonce) in every
 * leaf, each leaf's path leading to the published root, no place counted twice.
 */
export function verifyInclusion(
  proof: { currency: string; root: { hash: string; sum: string }; leafCount: number; leaves: readonly LeafProof[] },
  owner: string,
  nonceHex: string,
  tree: PublishedTree,
  digest: Digest = nobleDigest,
): InclusionCheck {
  const problems: string[] = [];
  const rootMatches =
    proof.root.hash === tree.root?.hash &&
    proof.root.sum === tree.root?.sum &&
    proof.leafCount === tree.leafCount &&
    proof.currency === tree.currency;
  if (!rootMatches) problems.push('the root of the proof is not the published root');
  let commitment: Uint8Array | null = null;
  if (!HEX_32.test(nonceHex)) problems.push('the nonce is not 32 bytes of hex');
  else {
    try {
      commitment = ownerCommitment(owner, hexToBytes(nonceHex), digest);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  const leaves = commitment
    ? proof.leaves.map((leaf) => ({
        index: leaf.index,
        value: leaf.value,
        path: verifyPath(
          { currency: proof.currency, index: leaf.index, value: leaf.value },
          commitment,
          leaf.path,
          tree,
          digest,
        ),
      }))
    : [];
  const distinct = new Set(proof.leaves.map((l) => l.index)).size === proof.leaves.length;
  if (!distinct) problems.push('a place is given twice');
  if (proof.leaves.length === 0) problems.push('the proof has no leaves');
  for (const leaf of leaves) for (const problem of leaf.path.problems) problems.push(`leaf ${leaf.index}: ${problem}`);
  const amount = proof.leaves.reduce((sum, leaf) => sum + (parseAmount(leaf.value) ?? 0n), 0n).toString();
  return { ok: problems.length === 0, rootMatches, amount, distinct, leaves, problems };
}

export type TreeCheck = { currency: string; ok: boolean; leafCount: number; total: string | null; problems: string[] };

/** The published statement of a tree: a code, decimals, a padded power-of-two size and a root of a hash and an amount. */
export function verifyTree(tree: PublishedTree): TreeCheck {
  const problems: string[] = [];
  const currency = typeof tree?.currency === 'string' ? tree.currency : '?';
  if (!/^[A-Z0-9]{1,16}$/.test(currency)) problems.push(`not a currency code: ${currency}`);
  if (!Number.isInteger(tree?.decimals) || tree.decimals < 0 || tree.decimals > 18)
    problems.push(`${currency}: decimals must be 0 to 18`);
  if (!isPowerOfTwo(tree?.leafCount) || tree.leafCount < MIN_LEAF_COUNT)
    problems.push(`${currency}: ${tree?.leafCount} leaves is not a power of two of at least ${MIN_LEAF_COUNT}`);
  if (typeof tree?.root?.hash !== 'string' || !HEX_32.test(tree.root.hash))
    problems.push(`${currency}: the root hash is not 32 bytes of hex`);
  const total = parseAmount(tree?.root?.sum);
  if (total === null) problems.push(`${currency}: the total is not a non-negative integer below 2^128`);
  return {
    currency,
    ok: problems.length === 0,
    leafCount: tree?.leafCount ?? 0,
    total: total === null ? null : total.toString(),
    problems,
  };
}

/** Every tree of a published snapshot, and its digest (what `npm run verify:liabilities` prints). */
export function verifySnapshot(
  snapshot: PublishedSnapshot,
  digest: Digest = nobleDigest,
): { ok: boolean; trees: TreeCheck[]; digest: string | null; problems: string[] } {
  const problems: string[] = [];
  if (snapshot?.format !== LIABILITIES_FORMAT) problems.push(`not a ${LIABILITIES_FORMAT} file`);
  if (!Number.isInteger(snapshot?.snapshotId) || snapshot.snapshotId < 1)
    problems.push('the snapshot id is not a positive integer');
  if (typeof snapshot?.takenAt !== 'string' || Number.isNaN(Date.parse(snapshot.takenAt)))
    problems.push('the snapshot has no instant');
  // No trees is a valid snapshot: nobody was owed anything.
  if (!Array.isArray(snapshot?.trees)) problems.push('the snapshot has no list of trees');
  const trees = Array.isArray(snapshot?.trees) ? snapshot.trees.map((tree) => verifyTree(tree)) : [];
  if (new Set(trees.map((t) => t.currency)).size !== trees.length) problems.push('a currency has two trees');
  const ok = problems.length === 0 && trees.every((t) => t.ok);
  return { ok, trees, digest: ok ? snapshotDigest(snapshot, digest) : null, problems };
}
