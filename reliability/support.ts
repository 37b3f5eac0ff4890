import { Client } from 'pg';

/** What the crash suites share: the PostgreSQL server they make their databases on, and how they ask it. */
export const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const KILLS = Number(process.env.CRASH_KILLS || 10);
/** A one-time code in an email (domain/codes.ts): four groups of four letters. */
export const CODE = /[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}/;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One query on its own connection: the suites ask while the servers they kill hold theirs. */
export async function sql<T = Record<string, unknown>>(
  url: string,
  query: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}
