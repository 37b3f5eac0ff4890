import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import Big from 'big.js';

/**
 * The faucet's rules, shared by the API (which draws) and the browser (which re-checks the draw).
 *
 * A draw the operator cannot steer (docs/decisions/0010, issue 20):
 * - seeds come from a hash chain fixed in advance: the server picks a secret seed_N at random and
 *   hashes it down, seed_{i-1} = SHA-256(seed_i) (over the 32 bytes), to the chain's anchor
 *   seed_0, which it publishes before the chain's first round; rounds then use seed_1, seed_2, …
 *   in order. A round publishes seedHash = SHA-256(its seed) when it starts — which is the seed
 *   the round before it revealed (or the anchor) — and reveals its seed with the winner, so anyone
 *   can check each link. Every seed was fixed when the anchor was published: the operator cannot
 *   pick one after seeing the entries;
 * - the seed alone would still be known to the operator while registrations are open, so each
 *   draw also mixes in a value nobody knows when registrations close: the hash of the first block
 *   after closing (when the round closes it records the height, tip + 1; the draw waits for that
 *   block). Locally that is the simulated chain's next block, with real payouts a Bitcoin block;
 * - every entry is published as a ticket, SHA-256("<roundId>:<address>:<salt>"), where the salt is
 *   16 random bytes (32 lower-case hex characters) drawn when the player enters and stored with the
 *   entry. Without the salt a ticket hid nothing: with SHA-256("<roundId>:<address>") anyone
 *   holding a list of candidate addresses (Muntly deposit addresses seen on chain, say) could hash
 *   each one and unmask every player behind the masked addresses (issue 32). The salt is shown
 *   only to its player (their own entries, GET /api/faucet/me and the answer to their entry), never
 *   in a public answer, so the player recomputes their own ticket from address and salt and nobody
 *   else can. The salt gives the server nothing to steer with: it is drawn at entry, before the
 *   block mixed into the draw exists, and the ticket is public from then on (the live player list,
 *   and the answer to the player's entry). Entries from before salts keep the old ticket,
 *   SHA-256("<roundId>:<address>") (their salt is null);
 * - entriesHash = SHA-256 of the tickets sorted and joined by "\n";
 * - the winner is sorted[ HMAC-SHA256(key = seed, message = "<roundId>:<entriesHash>:<block
 *   hash>") mod n ] (rounds drawn before blocks were mixed in: message "<roundId>:<entriesHash>").
 * Everything here is pure (no Node, no DOM) so that the site bundles the same code. What the API
 * shows of a round is its contract, domain/contracts/faucet.ts.
 */
/** A round's phases in order, and game_over (its own round while the faucet does not run). */
export const FAUCET_STATES = [
  'new',
  'registrations_open',
  'registrations_closed',
  'winner_announced',
  'game_over',
] as const;
export type FaucetState = (typeof FAUCET_STATES)[number];

/** Why the faucet is not running: the operator paused it, or its budget cannot pay a reward. */
export const GAME_OVER_REASONS = ['paused', 'budget'] as const;
export type GameOverReason = (typeof GAME_OVER_REASONS)[number];

/** A player's entry once its round is drawn (pending until then). */
export const ENTRY_RESULTS = ['pending', 'won', 'lost'] as const;
export type EntryResult = (typeof ENTRY_RESULTS)[number];

/** The currencies the faucet pays in: the fully supported ones (the spec's "DGC" is DOGE). */
export const FAUCET_CURRENCIES = ['BTC', 'ETH', 'XRP', 'BCH', 'LTC', 'DOGE'] as const;
export type FaucetCurrency = (typeof FAUCET_CURRENCIES)[number];
export const isFaucetCurrency = (code: string): code is FaucetCurrency =>
  (FAUCET_CURRENCIES as readonly string[]).includes(code);

/**
 * How a round's length is split over its phases, in thousandths (they sum to 1000): a short
 * "new" phase in which the seed hash is already public, a long registration window, a short pause
 * before the draw, and time to look at the result. 360 s gives 18 s / 252 s / 18 s / 72 s.
 */
export const PHASE_SHARES = {
  new: 50,
  registrations_open: 700,
  registrations_closed: 50,
  winner_announced: 200,
} as const;

export type RoundSchedule = { startsAt: Date; opensAt: Date; closesAt: Date; drawsAt: Date; endsAt: Date };

export function roundSchedule(startsAt: Date, roundMs: number): RoundSchedule {
  let t = startsAt.getTime();
  const next = (share: number) => new Date((t += Math.round((roundMs * share) / 1000)));
  const opensAt = next(PHASE_SHARES.new);
  const closesAt = next(PHASE_SHARES.registrations_open);
  const drawsAt = next(PHASE_SHARES.registrations_closed);
  const endsAt = next(PHASE_SHARES.winner_announced);
  return { startsAt, opensAt, closesAt, drawsAt, endsAt };
}

/** When the given state ends (the countdown's target); null for game_over. */
export function phaseEndsAt(state: FaucetState, schedule: Omit<RoundSchedule, 'startsAt'>): Date | null {
  switch (state) {
    case 'new':
      return schedule.opensAt;
    case 'registrations_open':
      return schedule.closesAt;
    case 'registrations_closed':
      return schedule.drawsAt;
    case 'winner_announced':
      return schedule.endsAt;
    case 'game_over':
      return null;
  }
}

/**
 * SHA-256 and HMAC-SHA256 as hex. The browser (and the default everywhere) uses @noble/hashes;
 * the server may pass Node's native implementation, which is far faster on the ~650 KB a round
 * of 10,000 entries hashes. Both give the same bytes (domain/__tests__/faucet.test.ts).
 */
export type Hashes = { sha256Hex(data: string): string; hmacSha256Hex(keyHex: string, message: string): string };

export const nobleHashes: Hashes = {
  sha256Hex: (data) => bytesToHex(sha256(utf8ToBytes(data))),
  hmacSha256Hex: (keyHex, message) => bytesToHex(hmac(sha256, hexToBytes(keyHex), utf8ToBytes(message))),
};

export const sha256Hex = (data: string): string => nobleHashes.sha256Hex(data);

/** The published commitment to a seed (hex of 32 bytes): also the seed one link down the chain. */
export const seedHashOf = (seedHex: string): string => bytesToHex(sha256(hexToBytes(seedHex)));

const HEX32 = /^[0-9a-f]{64}$/;

/** seed_{i-k} from seed_i: SHA-256 applied k times (the anchor is seed_0 = hashDown(seed_N, N)). */
export function hashDown(seedHex: string, times: number, hash: (seedHex: string) => string = seedHashOf): string {
  let seed = seedHex;
  for (let i = 0; i < times; i++) seed = hash(seed);
  return seed;
}

/** How many random bytes an entry's salt has (written as 32 lower-case hex characters). */
export const SALT_BYTES = 16;
export const SALT_PATTERN = /^[0-9a-f]{32}$/;

/**
 * A player's public ticket in a round: SHA-256 of "<roundId>:<address>:<salt>" with the entry's
 * secret salt, or of "<roundId>:<address>" for an entry from before salts (no salt, or null as the
 * database stores it). Without the salt a list of candidate addresses unmasks the players.
 */
export const ticketOf = (roundId: number, address: string, salt?: string | null): string =>
  sha256Hex(salt === undefined || salt === null ? `${roundId}:${address}` : `${roundId}:${address}:${salt}`);

export function sortTickets(tickets: readonly string[]): string[] {
  return [...tickets].sort();
}

export const entriesHashOf = (sortedTickets: readonly string[], hashes: Hashes = nobleHashes): string =>
  hashes.sha256Hex(sortedTickets.join('\n'));

/** What the HMAC of a draw signs: the round, its entries and the block hash mixed in (none before blocks were). */
export const drawMessage = (roundId: number, entriesHash: string, mix: string | null) =>
  mix === null ? `${roundId}:${entriesHash}` : `${roundId}:${entriesHash}:${mix}`;

/** The winner's position among n sorted tickets (a 256-bit number mod n: the bias is < 2^-200). */
export function drawIndex(
  seedHex: string,
  roundId: number,
  entriesHash: string,
  n: number,
  mix: string | null,
  hashes: Hashes = nobleHashes,
): number {
  if (n <= 0) throw new Error('no entries to draw from');
  return Number(BigInt(`0x${hashes.hmacSha256Hex(seedHex, drawMessage(roundId, entriesHash, mix))}`) % BigInt(n));
}

export type Draw = { entriesHash: string; index: number; ticket: string };

/** The whole draw from the published data: what the server does and what the browser re-checks. */
export function draw(
  seedHex: string,
  roundId: number,
  tickets: readonly string[],
  mix: string | null,
  hashes: Hashes = nobleHashes,
): Draw {
  const sorted = sortTickets(tickets);
  const entriesHash = hashes.sha256Hex(sorted.join('\n'));
  const index = drawIndex(seedHex, roundId, entriesHash, sorted.length, mix, hashes);
  return { entriesHash, index, ticket: sorted[index]! };
}

export type Verification = {
  /** The chain link: SHA-256(seed) is the hash the round published when it started. */
  seedMatches: boolean;
  /** That hash is the seed the round before it revealed, or the chain's anchor (null: not given). */
  previousMatches: boolean | null;
  /** The value mixed in is a block hash (null: the round was drawn before blocks were mixed in). */
  mixWellFormed: boolean | null;
  entriesHashMatches: boolean;
  winnerMatches: boolean;
  index: number | null;
};

export type RoundToVerify = {
  id: number;
  seed: string;
  seedHash: string;
  /** The seed the previous round of the chain revealed, or the chain's anchor for its first round; undefined when not known. */
  previousSeed?: string | null;
  /** The block hash mixed into the draw (null before blocks were mixed in). */
  mix: string | null;
  entriesHash: string | null;
  tickets: readonly string[];
  winnerTicket: string | null;
};

/** Checks an announced round: the chain link, the mixed-in value, and that the draw picks the announced ticket. */
export function verifyRound(round: RoundToVerify, hashes: Hashes = nobleHashes): Verification {
  const wellFormed = HEX32.test(round.seed);
  const seedMatches = wellFormed && seedHashOf(round.seed) === round.seedHash;
  const previousMatches =
    round.previousSeed === undefined || round.previousSeed === null ? null : round.previousSeed === round.seedHash;
  const mixWellFormed = round.mix === null ? null : HEX32.test(round.mix);
  const links = { seedMatches, previousMatches, mixWellFormed };
  if (!wellFormed || mixWellFormed === false) {
    return {
      ...links,
      entriesHashMatches: entriesHashOf(sortTickets(round.tickets), hashes) === round.entriesHash,
      winnerMatches: false,
      index: null,
    };
  }
  if (round.tickets.length === 0) {
    return {
      ...links,
      entriesHashMatches: round.entriesHash === null || round.entriesHash === entriesHashOf([], hashes),
      winnerMatches: round.winnerTicket === null,
      index: null,
    };
  }
  const result = draw(round.seed, round.id, round.tickets, round.mix, hashes);
  return {
    ...links,
    entriesHashMatches: result.entriesHash === round.entriesHash,
    winnerMatches: result.ticket === round.winnerTicket,
    index: result.index,
  };
}

/** A round passes when every check that applies to it holds. */
export const roundHolds = (v: Verification): boolean =>
  v.seedMatches && v.previousMatches !== false && v.mixWellFormed !== false && v.entriesHashMatches && v.winnerMatches;

/** The downloadable round history (GET /api/faucet/rounds/export) that `npm run verify:faucet` checks. */
export const ROUNDS_FORMAT = 'muntly-faucet-rounds-1';

export type PublishedSeedChain = { id: number; anchor: string; length: number; publishedAt: string };
export type PublishedRound = {
  id: number;
  state: FaucetState;
  announcedAt: string | null;
  /** Which chain the seed comes from and its place in it (null: a round from before seed chains). */
  seedChain: { id: number; index: number } | null;
  seedHash: string | null;
  seed: string | null;
  mix: { source: string; height: number; hash: string | null } | null;
  entriesHash: string | null;
  tickets: string[];
  winnerTicket: string | null;
};
export type RoundsFile = { format: typeof ROUNDS_FORMAT; chains: PublishedSeedChain[]; rounds: PublishedRound[] };

export type RoundCheck = { id: number; ok: boolean; verification: Verification | null; problems: string[] };

/**
 * Checks a range of announced rounds: each as verifyRound does, each chain link against the seed
 * the round before it in the chain revealed (or the chain's anchor for its first round), and that
 * a chain's seeds are used in order, one per round. Rounds still running and GAME OVER rounds
 * have nothing to check; a link to a round outside the range is checked when that round is in it.
 */
export function verifyRounds(
  file: RoundsFile,
  hashes: Hashes = nobleHashes,
): { ok: boolean; rounds: RoundCheck[]; problems: string[] } {
  const problems: string[] = [];
  if (file?.format !== ROUNDS_FORMAT) problems.push(`not a ${ROUNDS_FORMAT} file`);
  const rounds = Array.isArray(file?.rounds) ? [...file.rounds].sort((a, b) => a.id - b.id) : [];
  const chains = new Map((Array.isArray(file?.chains) ? file.chains : []).map((c) => [c.id, c]));
  const bySeat = new Map(rounds.filter((r) => r.seedChain).map((r) => [`${r.seedChain!.id}:${r.seedChain!.index}`, r]));
  const lastIndex = new Map<number, number>();
  const checks: RoundCheck[] = [];
  for (const round of rounds) {
    if (round.state !== 'winner_announced') continue;
    const found: string[] = [];
    if (!round.seed || !round.seedHash) {
      checks.push({ id: round.id, ok: false, verification: null, problems: ['an announced round without its seed'] });
      continue;
    }
    let previousSeed: string | null | undefined;
    if (round.seedChain) {
      const { id: chainId, index } = round.seedChain;
      const chain = chains.get(chainId);
      if (!chain) found.push(`seed chain ${chainId} is not in the file`);
      else if (index < 1 || index > chain.length)
        found.push(`seed ${index} is outside chain ${chainId} (1 to ${chain.length})`);
      previousSeed =
        index === 1 ? (chain?.anchor ?? undefined) : (bySeat.get(`${chainId}:${index - 1}`)?.seed ?? undefined);
      const last = lastIndex.get(chainId);
      if (last !== undefined && index !== last + 1)
        found.push(
          `uses seed ${index} of chain ${chainId} after seed ${last}: the seeds must be used in order, one per round`,
        );
      lastIndex.set(chainId, index);
    }
    const verification = verifyRound(
      {
        id: round.id,
        seed: round.seed,
        seedHash: round.seedHash,
        previousSeed,
        mix: round.mix?.hash ?? null,
        entriesHash: round.entriesHash,
        tickets: round.tickets,
        winnerTicket: round.winnerTicket,
      },
      hashes,
    );
    if (!verification.seedMatches) found.push('SHA-256 of the seed is not the hash published when the round started');
    if (verification.previousMatches === false)
      found.push(
        round.seedChain?.index === 1
          ? 'the published hash is not the chain’s anchor'
          : 'the published hash is not the seed the round before revealed',
      );
    if (round.mix && !round.mix.hash) found.push('the draw has no block hash mixed in');
    if (verification.mixWellFormed === false) found.push('the value mixed in is not a block hash');
    if (!verification.entriesHashMatches) found.push('the entries hash does not match the tickets');
    if (!verification.winnerMatches) found.push('the draw does not pick the announced winner');
    checks.push({ id: round.id, ok: found.length === 0, verification, problems: found });
  }
  return { ok: problems.length === 0 && checks.every((c) => c.ok), rounds: checks, problems };
}

/** What the public sees of an address: enough to recognize one's own, not to copy it. */
export function maskAddress(address: string): string {
  return address.length <= 12 ? `${address.slice(0, 3)}…` : `${address.slice(0, 6)}…${address.slice(-4)}`;
}

/**
 * The reward in a currency's minor units: EUR cents divided by the EUR rate, rounded down (the
 * faucet never pays more than it announced), but at least one minor unit so a win is never empty.
 */
export function rewardInCurrency(rewardEurMinor: bigint, eurRate: string, decimals: number): bigint {
  const units = new Big(rewardEurMinor.toString()).div(100).div(eurRate);
  const minor = BigInt(units.times(new Big(10).pow(decimals)).round(0, Big.roundDown).toFixed(0));
  return minor > 0n ? minor : 1n;
}
