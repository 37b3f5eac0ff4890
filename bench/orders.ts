/**
 * `npm run bench:orders`: orders placed per second and p99 latency with autocannon at 10
 * connections (each request a new customer and Idempotency-Key, so every one places an order),
 * next to a bare endpoint that inserts one row into the same database through the same stack,
 * in the same run (target ratio ≥ 0.6, issue 36); then order lookups per second. The server runs as in
 * production, on a PostgreSQL database of its own (BENCH_DATABASE_URL or TEST_DATABASE_URL,
 * default postgres://postgres@127.0.0.1:5432/test), dropped afterwards.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { freePort, freshBtcAddress, record, startServer } from './support';

/** The target: orders placed per second, at least this share of bare one-row inserts per second. */
const TARGET_RATIO = 0.6;

const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const duration = Number(process.env.BENCH_SECONDS || 10);
// A payout address of its own for each customer: orders to one address count as one customer's
// weekly volume, which an anonymous customer may not take past 1,000 EUR.

async function admin(query: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(query);
  await client.end();
}

type Measured = { rps: number; p99: number };

async function measure(options: autocannon.Options): Promise<Measured> {
  const result = await autocannon({ connections: 10, duration, ...options });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

const orderRequest = (run: string) => ({
  method: 'POST' as const,
  path: '/api/orders',
  setupRequest: (request: autocannon.Request) => {
    const id = randomUUID();
    return {
      ...request,
      headers: { 'content-type': 'application/json', 'idempotency-key': id },
      body: JSON.stringify({
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '50',
        email: `${run}-${id}@bench.test`,
        address: freshBtcAddress(),
      }),
    };
  },
});

async function main() {
  const name = `muntly_bench_orders_${Date.now()}`;
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-bench-'));
  // The API alone is measured: a one-page site stands in for the Gatsby build.
  fs.mkdirSync(path.join(dataDir, 'public'));
  fs.writeFileSync(path.join(dataDir, 'public', 'index.html'), '<!doctype html><title>Muntly</title>');
  const server = await startServer({
    DATA_DIR: dataDir,
    PUBLIC_DIR: path.join(dataDir, 'public'),
    IDP_PORT: String(await freePort()),
    DATABASE_URL: url.toString(),
    BENCH_ROUTES: 'true',
    // Lookups are limited to 10 a minute per IP and per email; the benchmark measures the work
    // behind the limit, so it lifts it.
    LOOKUP_LIMIT_PER_MINUTE: '100000000',
    ORDER_LIMIT_PER_EMAIL_PER_HOUR: '100000000',
    ORDER_LIMIT_PER_CLIENT_PER_HOUR: '100000000',
  });
  try {
    // Warm-up: JIT, connection pool, first rows.
    await measure({ url: server.url, duration: 2, requests: [{ method: 'POST', path: '/api/bench/insert' }] });
    await measure({ url: server.url, duration: 2, requests: [orderRequest('warm')] });

    const insert = await measure({ url: server.url, requests: [{ method: 'POST', path: '/api/bench/insert' }] });
    const orders = await measure({ url: server.url, requests: [orderRequest('run')] });

    // Lookups of real orders, by email and full reference, spread over 200 customers.
    const placed: { email: string; reference: string }[] = [];
    for (let i = 0; i < 200; i++) {
      const email = `lookup-${i}@bench.test`;
      const response = await fetch(`${server.url}/api/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '50',
          email,
          address: freshBtcAddress(),
        }),
      });
      placed.push({ email, reference: ((await response.json()) as { reference: string }).reference });
    }
    let next = 0;
    const lookups = await measure({
      url: server.url,
      requests: [
        {
          method: 'POST',
          path: '/api/orders/lookup',
          setupRequest: (request) => ({
            ...request,
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(placed[next++ % placed.length]),
          }),
        },
      ],
    });

    const ratio = orders.rps / insert.rps;
    console.log(
      `\nbench:orders — ${new Date().toISOString()} — ${os.cpus().length} cores, PostgreSQL, ${duration} s each, 10 connections`,
    );
    console.log('| endpoint | requests/s | p99 latency |');
    console.log('|---|---|---|');
    console.log(`| POST /api/bench/insert (one row) | ${insert.rps.toFixed(0)} | ${insert.p99} ms |`);
    console.log(`| POST /api/orders (buy, new customer) | ${orders.rps.toFixed(0)} | ${orders.p99} ms |`);
    console.log(`| ratio orders / insert | ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) | |`);
    console.log(`| POST /api/orders/lookup | ${lookups.rps.toFixed(0)} | ${lookups.p99} ms |`);
    const bare = `POST /api/bench/insert (one row): ${insert.rps.toFixed(0)} req/s, p99 ${insert.p99} ms`;
    record([
      {
        benchmark: 'bench:orders',
        figure: 'orders placed/s (buy, new customer), 10 connections',
        value: `${orders.rps.toFixed(0)} req/s, p99 ${orders.p99} ms`,
        reference: bare,
        ratio,
        target: `≥ ${TARGET_RATIO}`,
        met: ratio >= TARGET_RATIO,
      },
      {
        benchmark: 'bench:orders',
        figure: 'order lookups/s (email + reference)',
        value: `${lookups.rps.toFixed(0)} req/s, p99 ${lookups.p99} ms`,
        reference: bare,
        ratio: lookups.rps / insert.rps,
      },
    ]);
  } finally {
    server.stop();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await admin(`drop database if exists ${name} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
