import path from 'node:path';
import { loadConfig, type Config } from '../config';
import { mintAccessToken, readIdpKeys } from '../dev/keys';
import { chainNodes, checkXrpNetwork, xpubsFrom, xrpChain } from '../modules/chain/nodes';
import { sharedSignerKey } from '../modules/payouts/instruction';
import { Journal } from './journal';
import { houseSigners, readMnemonic } from './keys';
import { seedControlKeys, signReserves } from './reserves';
import { createSigner, type SignerApi } from './signer';
import { createXrpSigner, XrpJournal, xrpWallet } from './xrp';
import type { AuthConfig } from '#domain/contracts/auth';

/**
 * `npm run signer`: the signer process (signer.ts). It reads its settings as the server and the
 * ops CLI do (the environment over .env): the nodes (CHAIN_RPC_URL_<CUR>), the house keys' public
 * halves (XPUB_<CUR>) to check its seed against, the shared key (SIGNER_KEY, or locally the one in
 * DATA_DIR), the server (OPS_URL, or HOST and PORT) and, in production, OPS_TOKEN. Its seed is in
 * SIGNER_SEED_FILE (locally the public test mnemonic); its journal is DATA_DIR/signer-journal.jsonl.
 * With CHAIN_RPC_URL_XRP it pays XRP too (signer/xrp.ts): its XRP key must be XRP_ADDRESS's, its
 * journal is DATA_DIR/signer-journal-xrp.jsonl.
 * `npm run signer -- sign-reserves <snapshotId>` signs the proofs of control of a published
 * snapshot's house addresses once and exits (exit code 2 when it refused to sign some).
 */
async function main() {
  const config = loadConfig();
  const production = !config.localIdp;
  const command = process.argv.indexOf('sign-reserves');
  if (command >= 0) {
    // Once, then exit: the proofs of control of a published snapshot's house addresses (signer/reserves.ts). No node is needed.
    const snapshotId = Number(process.argv[command + 1]);
    if (!Number.isInteger(snapshotId) || snapshotId < 1)
      throw new Error('sign-reserves needs the snapshot id: npm run signer -- sign-reserves <snapshotId>');
    const keys = seedControlKeys(readMnemonic(config.SIGNER_SEED_FILE, production), xpubsFrom(config));
    const result = await signReserves({
      api: httpApi(config),
      keys,
      snapshotId,
      log: (message) => console.log(message),
    });
    if (result.refused > 0) process.exitCode = 2;
    return;
  }
  const nodes = chainNodes(config);
  const xrp = xrpChain(config);
  if (nodes.size === 0 && !xrp)
    throw new Error('No node to sign for: set CHAIN_RPC_URL_<CUR> (docs/chains.md "Run against a real node").');
  const xpubs = xpubsFrom(config);
  const mnemonic = readMnemonic(config.SIGNER_SEED_FILE, production);
  const keys = houseSigners(mnemonic, xpubs, [...nodes.keys()]);
  // The XRP key's address must be XRP_ADDRESS, or the signer does not start (signer/xrp.ts).
  const xrpSigner = xrp
    ? createXrpSigner({
        api: httpApi(config),
        node: xrp.node,
        wallet: xrpWallet(mnemonic, xrp.house),
        journal: new XrpJournal(path.join(config.DATA_DIR, 'signer-journal-xrp.jsonl')),
        macKey: sharedSignerKey(config),
        feeCap: config.XRP_FEE_CAP_DROPS,
        ledgerMargin: config.XRP_LEDGER_MARGIN,
        log: (message) => console.log(message),
      })
    : null;
  if (xrp) await checkXrpNetwork(xrp, config.CHAIN_NETWORK, (message) => console.warn(`signer: ${message}`));
  if (process.argv.includes('xrp-require-dest-tag')) {
    // Once, then exit: the house account requires destination tags (docs/chains.md "XRP Ledger").
    if (!xrpSigner) throw new Error('xrp-require-dest-tag needs CHAIN_RPC_URL_XRP');
    const sent = await xrpSigner.requireDestinationTag();
    console.log(
      sent
        ? `signer: AccountSet ${sent.hash} submitted (${sent.engineResult}); the watcher's alert clears once it is validated`
        : 'signer: the XRP house account requires destination tags already',
    );
    return;
  }
  for (const [code, node] of nodes) {
    const network = await node.network();
    if (network !== config.CHAIN_NETWORK)
      throw new Error(`CHAIN_RPC_URL_${code} is a ${network} node, but CHAIN_NETWORK is ${config.CHAIN_NETWORK}.`);
  }
  const signer = createSigner({
    api: httpApi(config),
    nodes,
    keys,
    xpubs,
    journal: new Journal(path.join(config.DATA_DIR, 'signer-journal.jsonl')),
    macKey: sharedSignerKey(config),
    bumpAfterMs: config.SIGNER_BUMP_AFTER_MINUTES * 60_000,
    // Gwei to wei without a float: ETH_MAX_FEE_GWEI has at most 3 decimals that matter (0.001 gwei).
    ethMaxFeeWei: BigInt(Math.round(config.ETH_MAX_FEE_GWEI * 1000)) * 1_000_000n,
    log: (message) => console.log(message),
    // The crash suite only: dies between the broadcast and the report.
    ...(process.env.SIGNER_DIE_BEFORE_REPORT === '1' && !production
      ? { beforeReport: async () => process.exit(137) }
      : {}),
  });
  console.log(
    `signer: signing ${[...nodes.keys(), ...(xrp ? ['XRP'] : [])].join(', ')} on ${config.CHAIN_NETWORK} for ${config.opsUrl}`,
  );
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (stopping = true));
  while (!stopping) {
    if (nodes.size > 0) {
      try {
        const run = await signer.run();
        if (run.paid || run.reported || run.refused || run.bumped)
          console.log(
            `signer: ${run.paid} paid, ${run.reported} reported again, ${run.refused} refused, ${run.bumped} replaced by fee`,
          );
      } catch (error) {
        console.error(`signer: ${(error as Error).message}; trying again`);
      }
    }
    if (xrpSigner) {
      try {
        const run = await xrpSigner.run();
        if (run.paid || run.reported || run.refused || run.completed || run.failed) {
          console.log(
            `signer: XRP ${run.paid} paid, ${run.reported} reported again, ${run.completed} completed, ${run.failed} failed, ${run.refused} refused`,
          );
        }
      } catch (error) {
        console.error(`signer: XRP: ${(error as Error).message}; trying again`);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, config.SIGNER_POLL_MS));
  }
}

/** The ops API with an admin token: OPS_TOKEN, or locally one signed with the local provider's key (subject "signer"). */
function httpApi(config: Config): SignerApi {
  let cached: { token: string; until: number } | null = null;
  async function token(): Promise<string> {
    if (config.OPS_TOKEN) return config.OPS_TOKEN;
    if (cached && cached.until > Date.now()) return cached.token;
    const server = (await (await fetch(new URL('/api/auth/config', config.opsUrl))).json()) as AuthConfig;
    const minted = await mintAccessToken(readIdpKeys(config.DATA_DIR), {
      issuer: `${server.domain}/`,
      audience: server.audience,
      subject: 'signer',
      scope: 'use:muntly admin:muntly',
      ttlSeconds: 300,
    });
    cached = { token: minted, until: Date.now() + 240_000 };
    return minted;
  }
  async function call<T>(method: 'GET' | 'POST', route: string, body?: unknown): Promise<T> {
    const response = await fetch(new URL(route, config.opsUrl), {
      method,
      headers: {
        authorization: `Bearer ${await token()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(30_000),
    });
    const payload = (await response.json().catch(() => null)) as T & { error?: { code: string; message: string } };
    if (!response.ok)
      throw new Error(
        `${method} ${route}: ${response.status} ${payload?.error?.code ?? ''} ${payload?.error?.message ?? ''}`.trim(),
      );
    return payload;
  }
  return { get: (route) => call('GET', route), post: (route, body) => call('POST', route, body) };
}

main().catch((error: unknown) => {
  console.error(`signer: ${(error as Error).message}`);
  process.exit(1);
});
