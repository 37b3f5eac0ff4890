/**
 * The database schema, one place for PGlite and PostgreSQL. Migrations in server/migrations are
 * generated from it by drizzle-kit (`npm run db:generate`) and applied at start-up. Every enum
 * column takes its values from one list in domain/ (its type, and its check constraint via oneOf).
 *
 * Each table belongs to one module and is defined in schema/<owner>.ts (docs/decisions/0021): the
 * owner's repository is the only one that reads or writes it, and other modules ask the owner's
 * service (__tests__/table-ownership.test.ts). This file only gathers them, for drizzle-kit
 * (drizzle.config.ts), the migrations and the tests.
 */
export * from './schema/accounts';
export * from './schema/audit';
export * from './schema/bank';
export * from './schema/chain';
export * from './schema/dev';
export * from './schema/faucet';
export * from './schema/identity';
export * from './schema/ledger';
export * from './schema/liabilities';
export * from './schema/limits';
export * from './schema/notify';
export * from './schema/orders';
export * from './schema/payouts';
export * from './schema/protection';
export * from './schema/wallet';
