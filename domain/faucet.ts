import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import Big from 'big.js';

/**
 * The faucet's rules, shared by the API (which draws) and the browser (which re-checks the draw).
 *
 * Provably fair draw (DESIGN.md section 6):
 * - when a round is created the server picks a secret 32-byte seed and publishes
 *   seedHash = SHA-256(seed) before anyone can enter;
 * - every entry is published as a ticket, SHA-256("<roundId>:<address>"): the player can recompute
 *   their own ticket from their address, and the server cannot re-roll tickets (they are fixed by
 *   the address);
 * - entriesHash = SHA-256 of the tickets sorted and joined by "\n";
 * - the winner is sorted[ HMAC-SHA256(key = seed, message = "<roundId>:<entriesHash>") mod n ];
 * - the seed is revealed with the winner, so anyone can redo every step.
 * Everything here is pure (no Node, no DOM) so that the site bundles the same code. What the API
 * shows of a round is its contract, domain/contracts/faucet.ts.
 */

/** A round's phases in order, and game_over (its own round while the faucet does not run). */
export const FAUCET_STATES = ['new', 'registrations_open', 'registrations_closed', 'winner_announced', 'game_over'] as const;
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
export const isFaucetCurrency = (code: string): code is FaucetCurrency => (FAUCET_CURRENCIES as readonly string[]).includes(code);

/** The spec's "about 0.02 EUR (two euro cents)", in cents. */
export const DEFAULT_REWARD_EUR_MINOR = 2n;

/**
 * How a round's length is split over its phases, in thousandths (they sum to 1000): a short
 * "new" phase in which the seed hash is already public, a long registration window, a short pause
 * before the draw, and time to look at the result. 360 s gives 18 s / 252 s / 18 s / 72 s.
 */
export const PHASE_SHARES = { new: 50, registrations_open: 700, registrations_closed: 50, winner_announced: 200 } as const;

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

/** The published commitment to a seed (hex of 32 bytes). */
export const seedHashOf = (seedHex: string): string => bytesToHex(sha256(hexToBytes(seedHex)));

/** A player's public ticket in a round. */
export const ticketOf = (roundId: number, address: string): string => sha256Hex(`${roundId}:${address}`);

export function sortTickets(tickets: readonly string[]): string[] {
  return [...tickets].sort();
}

export const entriesHashOf = (sortedTickets: readonly string[], hashes: Hashes = nobleHashes): string => hashes.sha256Hex(sortedTickets.join('\n'));

/** The winner's position among n sorted tickets (a 256-bit number mod n: the bias is < 2^-200). */
export function drawIndex(seedHex: string, roundId: number, entriesHash: string, n: number, hashes: Hashes = nobleHashes): number {
  if (n <= 0) throw new Error('no entries to draw from');
  return Number(BigInt(`0x${hashes.hmacSha256Hex(seedHex, `${roundId}:${entriesHash}`)}`) % BigInt(n));
}

export type Draw = { entriesHash: string; index: number; ticket: string };

/** The whole draw from the published data: what the server does and what the browser re-checks. */
export function draw(seedHex: string, roundId: number, tickets: readonly string[], hashes: Hashes = nobleHashes): Draw {
  const sorted = sortTickets(tickets);
  const entriesHash = hashes.sha256Hex(sorted.join('\n'));
  const index = drawIndex(seedHex, roundId, entriesHash, sorted.length, hashes);
  return { entriesHash, index, ticket: sorted[index]! };
}

export type Verification = { seedMatches: boolean; entriesHashMatches: boolean; winnerMatches: boolean; index: number | null };

/** Checks an announced round: the seed fits its hash, and the draw picks the announced ticket. */
export function verifyRound(
  round: { id: number; seed: string; seedHash: string; entriesHash: string | null; tickets: readonly string[]; winnerTicket: string | null },
  hashes: Hashes = nobleHashes,
): Verification {
  const wellFormed = /^[0-9a-f]{64}$/.test(round.seed);
  const seedMatches = wellFormed && seedHashOf(round.seed) === round.seedHash;
  if (!wellFormed) {
    return { seedMatches, entriesHashMatches: entriesHashOf(sortTickets(round.tickets), hashes) === round.entriesHash, winnerMatches: false, index: null };
  }
  if (round.tickets.length === 0) {
    return { seedMatches, entriesHashMatches: round.entriesHash === null || round.entriesHash === entriesHashOf([], hashes), winnerMatches: round.winnerTicket === null, index: null };
  }
  const result = draw(round.seed, round.id, round.tickets, hashes);
  return { seedMatches, entriesHashMatches: result.entriesHash === round.entriesHash, winnerMatches: result.ticket === round.winnerTicket, index: result.index };
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
