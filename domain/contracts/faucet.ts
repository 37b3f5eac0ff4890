import { z } from 'zod';
import { ENTRY_RESULTS, FAUCET_STATES, GAME_OVER_REASONS, SALT_PATTERN } from '../faucet';

/**
 * The faucet: GET /api/faucet (current round), GET /api/faucet/rounds/:id, GET /api/faucet/events
 * (SSE, event "round" carrying { round }), POST /api/faucet/entries, GET /api/faucet/me, and the
 * operator's /api/ops/faucet routes. A round is what anyone may see of it: the API's answer and
 * the faucet page's model (the page re-checks the draw with domain/faucet.ts).
 */
const iso = z.string().describe('ISO 8601 time');
const hex32 = z.string().describe('32 bytes of hex');

export const seedChainLinkSchema = z.object({
  id: z.number().int(),
  index: z.number().int().describe('This round uses seed number `index` of the chain (1 first)'),
  anchor: hex32.describe('seed_0 of the chain, published before its first round'),
  previousRoundId: z
    .number()
    .int()
    .nullable()
    .describe(
      'The round that used seed index − 1, whose revealed seed must equal this round’s seedHash; null for the first seed (check against the anchor)',
    ),
});
export const mixSchema = z.object({
  source: z.string().describe('simulated-chain (local mode) or bitcoin'),
  height: z.number().int().describe('The first block after registrations closed'),
  hash: hex32.nullable().describe('Its hash, once the draw used it'),
});
export const roundSchema = z.object({
  id: z.number().int(),
  state: z.enum(FAUCET_STATES),
  gameOverReason: z.enum(GAME_OVER_REASONS).nullable(),
  endsAt: iso.nullable().describe('When the current phase ends (the countdown); null in game_over'),
  schedule: z.object({
    startsAt: iso,
    opensAt: iso.nullable(),
    closesAt: iso.nullable(),
    drawsAt: iso.nullable(),
    endsAt: iso.nullable(),
  }),
  serverTime: iso.describe('The server clock, for the countdown'),
  announcedAt: iso.nullable().describe('When the winner was drawn (null before)'),
  seedHash: z
    .string()
    .nullable()
    .describe(
      'SHA-256 of the secret seed, published when the round starts: the seed the round before it in the chain revealed, or the chain’s anchor',
    ),
  seed: z.string().nullable().describe('The seed (hex), revealed with the winner'),
  seedChain: seedChainLinkSchema
    .nullable()
    .describe('Where the seed comes from (null for rounds from before seed chains)'),
  mix: mixSchema
    .nullable()
    .describe('The block mixed into the draw: fixed when registrations close, its hash once drawn'),
  entriesHash: z.string().nullable().describe('SHA-256 of the sorted tickets joined by newlines, with the winner'),
  reward: z.object({
    eur: z.string(),
    amounts: z.record(z.string(), z.string()).describe('The reward at the current rate per currency'),
  }),
  playerCount: z.number().int(),
  // No salt here, nor anywhere public: with it, anyone could match a masked address to its ticket.
  players: z.array(
    z.object({
      ticket: z
        .string()
        .describe(
          'SHA-256 of "<roundId>:<address>:<salt>", the salt known only to the player ("<roundId>:<address>" for entries from before salts)',
        ),
      address: z.string().describe('masked'),
      currency: z.string(),
    }),
  ),
  winner: z
    .object({ ticket: z.string(), address: z.string(), currency: z.string(), amount: z.string(), rate: z.string() })
    .nullable(),
  paused: z.boolean(),
});
export type Round = z.infer<typeof roundSchema>;

/** GET /api/faucet and each event of the live stream: null before the faucet first ticked. */
export const currentRoundResponse = z.object({ round: roundSchema.nullable() });
export type CurrentRoundResponse = z.infer<typeof currentRoundResponse>;

export const roundParams = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
export const roundResponse = z.object({ round: roundSchema });
export type RoundResponse = z.infer<typeof roundResponse>;

export const enterBody = z.object({ address: z.string().min(1).max(200) });
export type EnterBody = z.infer<typeof enterBody>;
/**
 * The entry's secret salt, for its player's eyes only (their own entry and GET /api/faucet/me):
 * with it the browser recomputes the player's ticket, ticketOf(roundId, address, salt).
 */
const salt = z
  .string()
  .regex(SALT_PATTERN)
  .describe('16 random bytes as hex, known only to the player: ticket = SHA-256 of "<roundId>:<address>:<salt>"');
export const entrySchema = z.object({
  roundId: z.number().int(),
  ticket: z.string(),
  address: z.string(),
  currency: z.string(),
  salt,
});
/** An accepted entry (POST /api/faucet/entries). */
export type Entry = z.infer<typeof entrySchema>;

export const myEntrySchema = z.object({
  roundId: z.number().int(),
  ticket: z.string(),
  address: z.string(),
  currency: z.string(),
  salt: salt
    .nullable()
    .describe(
      'The entry\'s secret salt (null for entries from before salts, whose ticket is SHA-256 of "<roundId>:<address>")',
    ),
  createdAt: iso,
  result: z.enum(ENTRY_RESULTS),
  amount: z.string().nullable(),
});
export type MyEntry = z.infer<typeof myEntrySchema>;
export const myEntriesResponse = z.object({ entries: z.array(myEntrySchema) });
export type MyEntriesResponse = z.infer<typeof myEntriesResponse>;

/** GET /api/faucet/rounds: announced rounds, newest first, paged. */
export const roundsQuery = z.object({
  before: z.coerce.number().int().min(1).max(2_147_483_647).optional().describe('Rounds older than this id (paging)'),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});
export const roundsResponse = z.object({
  rounds: z.array(roundSchema),
  next: z.number().int().nullable().describe('`before` for the next page'),
});
export type RoundsResponse = z.infer<typeof roundsResponse>;

/** GET /api/faucet/rounds/export: a range of rounds as domain/faucet.ts RoundsFile, for `npm run verify:faucet`. */
export const MAX_EXPORTED_ROUNDS = 500;
export const exportQuery = z
  .object({
    from: z.coerce.number().int().min(1).max(2_147_483_647),
    to: z.coerce.number().int().min(1).max(2_147_483_647),
  })
  .refine((q) => q.to >= q.from && q.to - q.from < MAX_EXPORTED_ROUNDS, {
    message: `to ≥ from, at most ${MAX_EXPORTED_ROUNDS} rounds`,
    path: ['to'],
  });

/** GET /api/faucet/seed-chains: every chain's anchor, oldest first. */
export const seedChainsResponse = z.object({
  chains: z.array(z.object({ id: z.number().int(), anchor: hex32, length: z.number().int(), publishedAt: iso })),
});
export type SeedChainsResponse = z.infer<typeof seedChainsResponse>;

/** Operator: GET /api/ops/faucet, POST /api/ops/faucet/pause|resume, POST /api/ops/faucet/fund. */
export const faucetStatusSchema = z.object({
  paused: z.boolean(),
  budgetEur: z.string().describe('Budget left, EUR'),
  round: z.object({ id: z.number().int(), state: z.string() }).nullable(),
});
export type FaucetStatus = z.infer<typeof faucetStatusSchema>;
export const faucetActionParams = z.object({ action: z.enum(['pause', 'resume']) });
export const faucetFundBody = z.object({ eur: z.string().max(20) });
export type FaucetFundBody = z.infer<typeof faucetFundBody>;
