// Column types shared by the schema files of server/src/db/schema/.
import { customType } from 'drizzle-orm/pg-core';

/**
 * An amount of crypto (or of any currency a column may hold) in minor units: numeric(38, 0), read
 * and written as a bigint. int8 stops at 9.2 × 10^18, which in wei (ether's 18 decimals, issue 31)
 * is 9.2 ETH; 38 digits hold 10^20 ETH and every other listed currency's supply in its minor unit.
 * EUR-only columns (cents: limits, EUR values, bank payments) stay int8.
 */
export const units = customType<{ data: bigint; driverData: string }>({
  dataType: () => 'numeric(38, 0)',
  toDriver: (value) => value.toString(),
  fromDriver: (value) => BigInt(value),
});

/** Raw bytes (PostgreSQL bytea): node-postgres reads a Buffer, PGlite a Uint8Array. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });
