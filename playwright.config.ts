import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * e2e journeys in Debian's Chromium (never a downloaded browser) against the production build,
 * served exactly as `npm start` serves it, on a free port. `npm run test:e2e` builds first.
 */
function freePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'localhost',()=>{console.log(s.address().port);s.close()})";
  return execFileSync(process.execPath, ['-e', script]).toString().trim();
}
// Workers inherit the environment, so ports and data are chosen once, by the main process.
process.env.E2E_PORT ||= freePort();
process.env.E2E_IDP_PORT ||= freePort();
process.env.E2E_DATA_DIR ||= fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-e2e-'));
// The operator's journey (e2e/ops.spec.ts) has a server of its own: its queues, payouts file and
// audit trail hold only what the journey did while the others run, and it pays euros out by bank
// file (BANK_PAYOUTS=external) as production does, where the shared server pays them at once.
process.env.E2E_OPS_PORT ||= freePort();
process.env.E2E_OPS_IDP_PORT ||= freePort();
process.env.E2E_OPS_DATA_DIR ||= fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-e2e-ops-'));
const port = process.env.E2E_PORT;
const baseURL = `http://localhost:${port}`;
const opsURL = `http://localhost:${process.env.E2E_OPS_PORT}`;
const serverCommand = 'node node_modules/tsx/dist/cli.mjs server/src/main.ts';

export default defineConfig({
  testDir: 'e2e',
  // The journeys sign up two users, read the dev mailbox and run axe on several pages; on a busy
  // 2-core CI machine the longest took just over a minute (the faucet round 59.9 s, the wallet
  // journey past 60 s while axe ran), so a test gets two.
  timeout: 120_000,
  // Login journeys cross two servers; on a busy 2-core machine a redirect can take a few seconds.
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  forbidOnly: true,
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: [
    {
      command: serverCommand,
      url: `${baseURL}/`,
      // A fresh embedded database and identity provider per run.
      env: {
        PORT: port,
        IDP_PORT: process.env.E2E_IDP_PORT,
        DATA_DIR: process.env.E2E_DATA_DIR,
        HOST: 'localhost',
        LOG_LEVEL: 'warn',
        // Short faucet rounds (28 s of registrations), so the faucet journey plays a whole round.
        FAUCET_ROUND_SECONDS: process.env.E2E_FAUCET_ROUND_SECONDS || '40',
        // Every journey places its orders from this one machine; the limit itself is tested in server/test/orders.test.ts.
        ORDER_LIMIT_PER_CLIENT_PER_HOUR: '1000',
        // A block explorer for BTC, so that the journeys see transaction hashes linked (other currencies stay unlinked, as in local mode).
        EXPLORER_URL_BTC: 'https://mempool.space/tx/{txid}',
        // A new address-book entry is held 45 seconds instead of a day: the security journey sees the
        // hold, the wallet journey waits it out before its send to an address outside Muntly.
        ADDRESS_HOLD_HOURS: '0.0125',
        // Setting up two-step login pauses sends (issue 34): 45 seconds instead of a day, which the
        // security journey waits out before its large send.
        SEND_COOLDOWN_HOURS: '0.0125',
      },
      reuseExistingServer: false,
      timeout: 300_000,
    },
    {
      command: serverCommand,
      url: `${opsURL}/`,
      env: {
        PORT: process.env.E2E_OPS_PORT,
        IDP_PORT: process.env.E2E_OPS_IDP_PORT,
        DATA_DIR: process.env.E2E_OPS_DATA_DIR,
        HOST: 'localhost',
        LOG_LEVEL: 'warn',
        ORDER_LIMIT_PER_CLIENT_PER_HOUR: '1000',
        // Euros leave by the payouts file (pain.001) the operator exports, as in production.
        BANK_PAYOUTS: 'external',
        // A payout above 40 EUR is "large" here, so a first order (at most 100 EUR) shows four eyes.
        PAYOUT_APPROVAL_ABOVE_EUR: '40',
      },
      reuseExistingServer: false,
      timeout: 300_000,
    },
  ],
});
