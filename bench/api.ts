/**
 * `npm run bench:api`: requests per second and p99 latency of GET /api/me with a valid token and
 * of GET /api/health, autocannon with 10 connections, in one run, and their ratio (target ≥ 0.6).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { loadConfig } from '../server/src/config';
import { mintAccessToken, readIdpKeys } from '../server/src/dev/keys';
import { freePort, record, startServer } from './support';

/** The target: GET /api/me with a valid token serves at least this share of GET /api/health's requests per second. */
const TARGET_RATIO = 0.6;

const duration = Number(process.env.BENCH_SECONDS || 10);

async function measure(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: 10, duration, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99 };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-bench-'));
  const idpPort = String(await freePort());
  const server = await startServer({ DATA_DIR: dataDir, IDP_PORT: idpPort });
  try {
    const config = loadConfig({ DATA_DIR: dataDir, IDP_PORT: idpPort });
    const admin = await mintAccessToken(readIdpKeys(dataDir), {
      issuer: config.authIssuer,
      audience: config.authAudience,
      subject: 'bench',
      scope: 'use:muntly admin:muntly',
    });
    const minted = await fetch(`${server.url}/api/ops/dev-token`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'demo@muntly.test' }),
    });
    const { accessToken } = (await minted.json()) as { accessToken: string };
    const auth = { authorization: `Bearer ${accessToken}` };
    await measure(`${server.url}/api/me`, auth); // warm-up: account creation, JWKS fetch, JIT

    const health = await measure(`${server.url}/api/health`);
    const me = await measure(`${server.url}/api/me`, auth);
    const ratio = me.rps / health.rps;
    console.log(
      `\nbench:api — ${new Date().toISOString()} — ${os.cpus().length} cores, ${duration} s each, 10 connections`,
    );
    console.log('| endpoint | requests/s | p99 latency |');
    console.log('|---|---|---|');
    console.log(`| GET /api/health | ${health.rps.toFixed(0)} | ${health.p99} ms |`);
    console.log(`| GET /api/me (valid token) | ${me.rps.toFixed(0)} | ${me.p99} ms |`);
    console.log(`| ratio me / health | ${ratio.toFixed(2)} (target ≥ ${TARGET_RATIO}) | |`);
    record([
      {
        benchmark: 'bench:api',
        figure: 'GET /api/me with a valid token, 10 connections',
        value: `${me.rps.toFixed(0)} req/s, p99 ${me.p99} ms`,
        reference: `GET /api/health: ${health.rps.toFixed(0)} req/s, p99 ${health.p99} ms`,
        ratio,
        target: `≥ ${TARGET_RATIO}`,
        met: ratio >= TARGET_RATIO,
      },
    ]);
  } finally {
    server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
