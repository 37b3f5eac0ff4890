import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { FAUCET_STATES, GAME_OVER_REASONS } from '#domain/faucet';
import { units } from '../columns';
import { oneOf } from '../one-of';
import { accounts } from './accounts';
import { receptionAddresses } from './wallet';

/** The faucet module's tables (server/src/modules/faucet). */

/**
 * The faucet (issue 7). One state row (id 1): the operator's pause switch and the budget left in
 * EUR cents; it is locked FOR UPDATE by every tick, so round transitions are serialized even if
 * two tickers ever ran at once. The budget only shrinks by a paid reward in the same transaction
 * as the ledger credit, and never below zero.
 */
export const faucetState = pgTable(
  'faucet_state',
  {
    id: integer('id').primaryKey(),
    paused: boolean('paused').notNull().default(false),
    budgetEurMinor: bigint('budget_eur_minor', { mode: 'bigint' })
      .notNull()
      .default(sql`0`),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('faucet_state_singleton', sql`${t.id} = 1`),
    check('faucet_state_budget_not_negative', sql`${t.budgetEurMinor} >= 0`),
  ],
);

/**
 * Seed chains (issue 20, domain/faucet.ts): a secret top seed seed_N, hashed down to the anchor
 * seed_0 = SHA-256^N(seed_N), which is public from the moment the row exists, before the chain's
 * first round. Rounds take the chain's seeds in order, seed_1 first (`next_index`); only the top
 * seed is stored, every other seed is hashed down from it when its round starts. The next chain is
 * created when a round takes the last seed of the current one, so its anchor is public a round
 * ahead.
 */
export const faucetSeedChains = pgTable(
  'faucet_seed_chains',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    anchor: text('anchor').notNull(),
    length: integer('length').notNull(),
    /** seed_N: secret; never sent anywhere (each round reveals its own seed with its winner). */
    topSeed: text('top_seed').notNull(),
    nextIndex: integer('next_index').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('faucet_seed_chains_length', sql`${t.length} > 0`),
    check('faucet_seed_chains_next_index', sql`${t.nextIndex} between 1 and ${t.length} + 1`),
  ],
);

/**
 * Rounds: new -> registrations_open -> registrations_closed -> winner_announced, or a game_over
 * row while the faucet is paused or out of budget. The schedule is stored, so the state follows
 * the database clock and a restarted ticker catches up. At most one round is current
 * (finished_at null), enforced by a unique partial index. The seed stays secret (never sent)
 * until the winner is announced; seed_hash is public from the start.
 */
export const faucetRounds = pgTable(
  'faucet_rounds',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    state: text('state', { enum: FAUCET_STATES }).notNull(),
    gameOverReason: text('game_over_reason', { enum: GAME_OVER_REASONS }),
    seed: text('seed'),
    seedHash: text('seed_hash'),
    rewardEurMinor: bigint('reward_eur_minor', { mode: 'bigint' }).notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    opensAt: timestamp('opens_at', { withTimezone: true }),
    closesAt: timestamp('closes_at', { withTimezone: true }),
    drawsAt: timestamp('draws_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    entryCount: integer('entry_count'),
    entriesHash: text('entries_hash'),
    winnerEntryId: uuid('winner_entry_id'),
    rewardCurrency: text('reward_currency'),
    rewardAmount: units('reward_amount'),
    rewardRate: text('reward_rate'),
    announcedAt: timestamp('announced_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** Where the seed comes from: the chain and the seed's index in it (null for rounds from before seed chains). */
    seedChainId: integer('seed_chain_id').references(() => faucetSeedChains.id, { onDelete: 'restrict' }),
    seedIndex: integer('seed_index'),
    /** The block mixed into the draw: its source (the Chain adapter's name) and height, set when registrations close; its hash, set by the draw. */
    mixSource: text('mix_source'),
    mixHeight: integer('mix_height'),
    mixHash: text('mix_hash'),
  },
  (t) => [
    uniqueIndex('faucet_rounds_seed')
      .on(t.seedChainId, t.seedIndex)
      .where(sql`${t.seedChainId} is not null`),
    check('faucet_rounds_seed_in_chain', sql`(${t.seedChainId} is null) = (${t.seedIndex} is null)`),
    uniqueIndex('faucet_rounds_one_current')
      .on(sql`(true)`)
      .where(sql`finished_at is null`),
    check('faucet_rounds_state', oneOf(t.state, FAUCET_STATES)),
    check('faucet_rounds_game_over_reason', sql`(${t.state} = 'game_over') = (${t.gameOverReason} is not null)`),
    check(
      'faucet_rounds_scheduled',
      sql`${t.state} = 'game_over' or (${t.seedHash} is not null and ${t.seed} is not null and ${t.endsAt} is not null)`,
    ),
  ],
);

/**
 * Entries: one per account per round (unique index: a second request, even a racing one, gets
 * 409), each for one of the player's own reception addresses. The ticket is SHA-256 of
 * "<roundId>:<address>:<salt>" (domain/faucet.ts; entries from before 0035: without the salt) and is what the draw and the public list use.
 */
export const faucetEntries = pgTable(
  'faucet_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    roundId: integer('round_id')
      .notNull()
      .references(() => faucetRounds.id, { onDelete: 'restrict' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    addressId: uuid('address_id')
      .notNull()
      .references(() => receptionAddresses.id, { onDelete: 'restrict' }),
    currency: text('currency').notNull(),
    address: text('address').notNull(),
    ticket: text('ticket').notNull(),
    /**
     * The entry's secret salt (16 bytes of hex), shown only to its player: the ticket commits to it
     * (domain/faucet.ts ticketOf), so a masked address and its public ticket cannot be matched
     * against a list of candidate addresses. Null for entries from before migration 0035.
     */
    salt: text('salt'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('faucet_entries_round_account').on(t.roundId, t.accountId),
    uniqueIndex('faucet_entries_round_ticket').on(t.roundId, t.ticket),
    index('faucet_entries_account').on(t.accountId, t.createdAt),
  ],
);
