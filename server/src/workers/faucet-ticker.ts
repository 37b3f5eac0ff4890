import { advance, ensureState, tickMsFor, type FaucetSettings } from '../modules/faucet/service';
import type { Database } from '../db/client';
import type { RatesAdapter } from '../modules/rates/service';
import type { FastifyBaseLogger } from 'fastify';
import type { Pool, PoolClient } from 'pg';

/**
 * The faucet ticker: moves rounds along the clock. It runs in exactly one replica at a time.
 *
 * Leadership on PostgreSQL is a session-level advisory lock held on a connection taken out of
 * the pool for as long as this replica leads. When the leader's process dies, its connection
 * closes and PostgreSQL releases the lock; another replica, trying once per tick, takes over
 * within a tick. Server-side TCP keepalives on that connection bound how long a silently
 * vanished machine (no FIN) keeps the lock to about 20 s, shorter than a registration window.
 * PGlite is one process by construction, so there the ticker simply runs.
 *
 * Correctness does not rest on the lock: each transition locks the state row and is conditional,
 * and the credit's ledger id is `faucet:<roundId>`. The lock only avoids wasted, contending work.
 */
export interface Leadership {
  /** True while this replica leads (acquiring the lead if it is free). */
  acquire(): Promise<boolean>;
  release(): Promise<void>;
}

export const singleProcessLeadership = (): Leadership => ({
  acquire: async () => true,
  release: async () => undefined,
});

/** A fixed 64-bit key in the advisory-lock space, "muntly faucet ticker". */
export const FAUCET_LOCK_KEY = '7238447519201911297';

export function advisoryLockLeadership(pool: Pool, log?: FastifyBaseLogger): Leadership {
  let held: PoolClient | null = null;
  const drop = (error?: Error) => {
    if (!held) return;
    const client = held;
    held = null;
    log?.warn({ err: error }, 'faucet ticker: lost the leader connection');
    client.release(error ?? true); // destroy it: its session (and lock) must not return to the pool
  };
  return {
    async acquire() {
      if (held) {
        try {
          // The session that holds the lock must still be alive; a dead one has lost the lock.
          await held.query('select 1');
          return true;
        } catch (error) {
          drop(error as Error);
          return false;
        }
      }
      let client: PoolClient;
      try {
        client = await pool.connect();
      } catch {
        return false;
      }
      try {
        const { rows } = await client.query<{ locked: boolean }>(
          `select pg_try_advisory_lock(${FAUCET_LOCK_KEY}) as locked`,
        );
        if (!rows[0]?.locked) {
          client.release();
          return false;
        }
        await client.query(
          'set tcp_keepalives_idle = 5; set tcp_keepalives_interval = 5; set tcp_keepalives_count = 3',
        );
        // An error on an idle checked-out client is emitted, not thrown: without a listener it
        // would crash the process.
        client.on('error', drop);
        held = client;
        log?.info('faucet ticker: this replica leads');
        return true;
      } catch (error) {
        client.release(error as Error);
        return false;
      }
    },
    async release() {
      if (!held) return;
      const client = held;
      held = null;
      try {
        await client.query(`select pg_advisory_unlock(${FAUCET_LOCK_KEY})`);
        client.release();
      } catch (error) {
        client.release(error as Error);
      }
    },
  };
}

/** The leadership that fits the database: the advisory lock on PostgreSQL, none on PGlite. */
export function leadershipFor(database: Database, log?: FastifyBaseLogger): Leadership {
  if (database.kind === 'pglite') return singleProcessLeadership();
  return advisoryLockLeadership((database.db as unknown as { $client: Pool }).$client, log);
}

/** How often to tick: 1 s for real rounds, faster for the short rounds of tests (50 ticks a round). */
export type FaucetTicker = {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** One tick now (tests, and after an operator action). */
  tick(): Promise<void>;
  readonly leading: boolean;
};

export function createFaucetTicker(options: {
  database: Database;
  rates: RatesAdapter;
  settings: FaucetSettings;
  log?: FastifyBaseLogger;
  leadership?: Leadership;
  onAdvance?: () => void;
}): FaucetTicker {
  const { database, rates, settings, log } = options;
  const leadership = options.leadership ?? leadershipFor(database, log);
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> | undefined;
  let leading = false;
  let stopped = false;

  const once = async () => {
    try {
      leading = await leadership.acquire();
      if (!leading || stopped) return;
      const transitions = await advance(database.db, rates, settings);
      if (transitions > 0) options.onAdvance?.();
    } catch (error) {
      // A failed tick changes nothing (its transaction rolled back); the next one retries.
      log?.warn({ err: error }, 'faucet tick failed');
    }
  };
  const tick = () => {
    inFlight ??= once().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  return {
    get leading() {
      return leading;
    },
    tick,
    async start() {
      if (timer) return;
      stopped = false;
      await ensureState(database.db, settings);
      timer = setInterval(() => void tick(), tickMsFor(settings.roundMs));
      timer.unref();
      await tick();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await inFlight;
      await leadership.release();
      leading = false;
    },
  };
}
