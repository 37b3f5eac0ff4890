import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { rows } from './raw';
import * as schema from './schema';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';

/**
 * PostgreSQL when DATABASE_URL is set, otherwise PGlite (PostgreSQL in WebAssembly) persisted in
 * DATA_DIR. Same schema, same SQL, same migrations. PGlite is single-process: while the server
 * runs, anything else (the ops CLI) reaches the data through the server's API.
 */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * An open transaction: what `db.transaction((tx) => …)` hands its callback. A function that must
 * run inside its caller's transaction (it locks rows until the transaction ends, or its writes
 * must commit or roll back with the caller's) takes a `Tx`, so passing the bare database is a type
 * error (a transaction has `rollback`, the database has not); a `Tx` goes wherever a `Db` does.
 */
export type Tx = PgTransaction<PgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;

export type Database = {
  db: Db;
  kind: 'postgresql' | 'pglite';
  /** Applies pending migrations from server/migrations. */
  migrate(): Promise<void>;
  /** True when the database answers and every migration is applied. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
  /** PGlite only: its data directory as a tarball (tests start fresh databases from a migrated one). */
  dump?(): Promise<Blob>;
  /**
   * PGlite only: a consistent backup while the server runs — its data directory as a gzipped
   * tarball, taken after a checkpoint and while no transaction is open (`npm run ops -- backup`).
   */
  backup?(): Promise<Blob>;
};

export const MIGRATIONS_DIR = path.resolve(__dirname, '../../migrations');

function migrationCount(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8'));
  return journal.entries.length;
}

/**
 * Runs the migrator. A statement that fails (a migration refusing a value it cannot convert) is
 * reported with the database's own message and hint: drizzle's error says only which SQL failed,
 * and the start-up prints just the message.
 */
async function migrating(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const cause = error instanceof Error ? (error.cause as (Error & { hint?: string }) | undefined) : undefined;
    if (!(cause instanceof Error)) throw error;
    throw new Error(`Migration failed: ${cause.message}${cause.hint ? ` — ${cause.hint}` : ''}`, { cause: error });
  }
}

async function isReady(db: Db): Promise<boolean> {
  try {
    const [row] = await rows<{ applied: number }>(
      db,
      sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
    );
    return (row?.applied ?? 0) >= migrationCount();
  } catch {
    return false;
  }
}

export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  inMemory?: boolean;
  loadDataDir?: Blob;
}): Promise<Database> {
  if (options.databaseUrl) {
    const { Pool } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server drops (restart, failover, admin) must not crash the process:
    // the pool discards it and opens a new one on the next query.
    pool.on('error', (error) => console.warn(`PostgreSQL dropped an idle connection: ${error.message}`));
    const db = drizzle(pool, { schema }) as unknown as Db;
    return {
      db,
      kind: 'postgresql',
      migrate: () => migrating(() => migrate(drizzle(pool), { migrationsFolder: MIGRATIONS_DIR })),
      ready: () => isReady(db),
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  // In memory for tests: a fresh, private database per suite.
  if (!options.inMemory) fs.mkdirSync(options.dataDir, { recursive: true });
  // Tests start from a snapshot of a migrated database (loadDataDir): a fresh PGlite runs initdb, which takes seconds.
  const client = options.loadDataDir
    ? new PGlite({ loadDataDir: options.loadDataDir })
    : new PGlite(options.inMemory ? 'memory://' : path.join(options.dataDir, 'pgdata'));
  const db = drizzle(client, { schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    dump: () => client.dumpDataDir('none'),
    // PGlite runs one statement at a time; its transaction lock keeps every other transaction out
    // while the files are read (a single statement outside one is atomic anyway), so the tarball
    // holds committed work only. CHECKPOINT first, so a restore replays little WAL.
    backup: async () => {
      await client.exec('checkpoint');
      let tarball: Blob | undefined;
      await client.transaction(async () => {
        tarball = await client.dumpDataDir('gzip');
      });
      return tarball!;
    },
    migrate: () => migrating(() => migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR })),
    ready: () => isReady(db),
    close: () => client.close(),
  };
}

/**
 * Restores a PGlite backup (`npm run ops -- backup`) into `dataDir`, with the server stopped: the
 * data directory there now is moved aside (kept, never deleted) and the backup's unpacked in its
 * place; the migrations newer than the backup run on the next start. Returns where the old one went.
 */
export async function restorePglite(
  dataDir: string,
  tarball: Blob,
  now = new Date(),
): Promise<{ movedAside: string | null }> {
  const { PGlite } = await import('@electric-sql/pglite');
  const target = path.join(dataDir, 'pgdata');
  let movedAside: string | null = null;
  if (fs.existsSync(target)) {
    movedAside = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    fs.renameSync(target, movedAside);
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const client = new PGlite(target, { loadDataDir: tarball });
  await client.waitReady;
  await client.close();
  return { movedAside };
}
