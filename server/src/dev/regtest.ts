import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { rpcNode } from '../modules/chain/rpc';

/**
 * `npm run regtest -- <command>`: a local Litecoin regtest node for trying Muntly against a real
 * chain (docs/chains.md "Run against a real node"). Debian's litecoind (`apt-get install -y litecoind`).
 *
 *   start               starts litecoind -regtest in .regtest/, with a wallet holding 101 blocks'
 *                       coins, and writes CHAIN_NETWORK, CHAIN_RPC_URL_LTC, CONFIRMATIONS_LTC=3,
 *                       ADDRESS_HOLD_HOURS=0 and PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS=0 into .env
 *                       (which npm start, npm run signer and npm run ops read)
 *   pay <address> <amount>   the node's wallet pays an address (yours in Muntly's wallet), mines 1 block
 *   mine [n]            mines n blocks (default 1)
 *   address             a new address of the node's wallet (to send to from Muntly)
 *   received <address>  what an address of the node's wallet received
 *   stop                stops the node
 */
const root = path.resolve(__dirname, '../../..');
const dataDir = path.join(root, '.regtest');
const RPC_PORT = Number(process.env.REGTEST_RPC_PORT ?? 19443);
const url = `http://muntly:regtest@127.0.0.1:${RPC_PORT}`;
const node = rpcNode('LTC', url);
const wallet = rpcNode('LTC', `${url}/wallet/regtest`);
// The demo account is new: it sends only to its address book, whose entries wait a day before use
// (ADDRESS_HOLD_HOURS), and its payouts wait for two operators while its bank verification is
// younger than a week (PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS). Locally, on regtest, neither waits.
const ENV_LINES = {
  CHAIN_NETWORK: 'regtest',
  CHAIN_RPC_URL_LTC: url,
  CONFIRMATIONS_LTC: '3',
  ADDRESS_HOLD_HOURS: '0',
  PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS: '0',
};

async function answers(): Promise<boolean> {
  return node.call('getblockchaininfo').then(
    () => true,
    () => false,
  );
}

async function start() {
  if (!(await answers())) {
    fs.mkdirSync(dataDir, { recursive: true });
    const args = [
      '-regtest',
      `-datadir=${dataDir}`,
      '-rpcuser=muntly',
      '-rpcpassword=regtest',
      `-rpcport=${RPC_PORT}`,
      `-port=${RPC_PORT + 1}`,
      '-listen=0',
      '-fallbackfee=0.0002',
      '-mempoolreplacement=1',
      '-txindex=1',
      '-daemon',
    ];
    await new Promise<void>((resolve, reject) =>
      spawn('litecoind', args, { stdio: 'inherit' }).once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`litecoind exited with ${code}`)),
      ),
    );
    for (let i = 0; i < 100 && !(await answers()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const wallets = await node.call<string[]>('listwallets');
  if (!wallets.includes('regtest'))
    await node.call('createwallet', ['regtest']).catch(() => node.call('loadwallet', ['regtest']));
  const { height } = await node.tip();
  if (height < 101) await mine(101 - height);
  const envFile = path.join(root, '.env');
  const existing = fs.existsSync(envFile) ? fs.readFileSync(envFile, 'utf8') : '';
  const missing = Object.entries(ENV_LINES).filter(([key]) => !new RegExp(`^${key}=`, 'm').test(existing));
  if (missing.length)
    fs.appendFileSync(
      envFile,
      `${existing && !existing.endsWith('\n') ? '\n' : ''}${missing.map(([k, v]) => `${k}=${v}`).join('\n')}\n`,
    );
  console.log(
    `litecoind -regtest answers at 127.0.0.1:${RPC_PORT}, height ${(await node.tip()).height}; .env has ${Object.keys(ENV_LINES).join(', ')}`,
  );
}

async function mine(blocks: number) {
  const address = await wallet.call<string>('getnewaddress');
  await node.call('generatetoaddress', [blocks, address]);
  console.log(`mined ${blocks}; height ${(await node.tip()).height}`);
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case 'start':
      return start();
    case 'pay': {
      const [address, amount] = args;
      if (!address || !amount) throw new Error('pay <address> <amount>');
      console.log(`txid ${await wallet.call<string>('sendtoaddress', [address, amount])}`);
      return mine(1);
    }
    case 'mine':
      return mine(Number(args[0] ?? 1));
    case 'address':
      return console.log(await wallet.call<string>('getnewaddress'));
    case 'received':
      return console.log(await wallet.call<string>('getreceivedbyaddress', [args[0], 0]));
    case 'stop':
      return console.log(await node.call<string>('stop'));
    default:
      throw new Error(
        'npm run regtest -- start | pay <address> <amount> | mine [n] | address | received <address> | stop',
      );
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
