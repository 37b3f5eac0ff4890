import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { ethNode } from '../modules/chain/ethereum';

/**
 * `npm run regtest:eth -- <command>`: a local Ethereum node (anvil, from Foundry, in node_modules)
 * for trying Muntly's ether against a real chain (docs/chains.md "Ether against anvil"). Blocks are mined
 * when you say so, as with the Litecoin regtest node.
 *
 *   start                    starts anvil on 127.0.0.1:$REGTEST_ETH_PORT (8545) in the background, its
 *                            state kept in .regtest-eth/, and writes CHAIN_NETWORK=regtest,
 *                            CHAIN_RPC_URL_ETH, CONFIRMATIONS_ETH=3, ADDRESS_HOLD_HOURS=0 and
 *                            PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS=0 into .env
 *   pay <address> <amount>   anvil's first funded account pays an address (yours in Muntly's wallet), mines 1 block
 *   mine [n]                 mines n blocks (default 1)
 *   address                  an outside address to send to from Muntly (anvil's second account)
 *   balance <address>        an address's balance in ether
 *   stop                     stops the node
 */
const root = path.resolve(__dirname, '../../..');
const dataDir = path.join(root, '.regtest-eth');
const pidFile = path.join(dataDir, 'anvil.pid');
const PORT = Number(process.env.REGTEST_ETH_PORT ?? 8545);
const url = `http://127.0.0.1:${PORT}`;
const node = ethNode(url);
const ENV_LINES = {
  CHAIN_NETWORK: 'regtest',
  CHAIN_RPC_URL_ETH: url,
  CONFIRMATIONS_ETH: '3',
  ADDRESS_HOLD_HOURS: '0',
  PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS: '0',
};

const answers = () =>
  node.call('eth_chainId').then(
    () => true,
    () => false,
  );

async function start() {
  if (!(await answers())) {
    fs.mkdirSync(dataDir, { recursive: true });
    const log = fs.openSync(path.join(dataDir, 'anvil.log'), 'a');
    // Its default mnemonic ("test … junk"), not the house's test mnemonic: Muntly's addresses start empty.
    const child = spawn(
      path.join(root, 'node_modules/.bin/anvil'),
      ['--port', String(PORT), '--host', '127.0.0.1', '--no-mining', '--state', path.join(dataDir, 'state.json')],
      {
        detached: true,
        stdio: ['ignore', log, log],
      },
    );
    child.unref();
    fs.writeFileSync(pidFile, String(child.pid));
    for (let i = 0; i < 100 && !(await answers()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const envFile = path.join(root, '.env');
  const existing = fs.existsSync(envFile) ? fs.readFileSync(envFile, 'utf8') : '';
  const missing = Object.entries(ENV_LINES).filter(([key]) => !new RegExp(`^${key}=`, 'm').test(existing));
  if (missing.length)
    fs.appendFileSync(
      envFile,
      `${existing && !existing.endsWith('\n') ? '\n' : ''}${missing.map(([k, v]) => `${k}=${v}`).join('\n')}\n`,
    );
  console.log(
    `anvil answers at ${url}, height ${(await node.tip()).height}; .env has ${Object.keys(ENV_LINES).join(', ')}`,
  );
}

async function mine(blocks: number) {
  await node.call('anvil_mine', [`0x${blocks.toString(16)}`]);
  console.log(`mined ${blocks}; height ${(await node.tip()).height}`);
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  switch (command) {
    case 'start':
      return start();
    case 'pay': {
      const [address, amount] = args;
      const wei = amount ? decimalToMinor(amount, 18) : null;
      if (!address || wei === null) throw new Error('pay <address> <amount in ether>');
      const [from] = await node.call<string[]>('eth_accounts');
      console.log(
        `txid ${await node.call<string>('eth_sendTransaction', [{ from, to: address, value: `0x${wei.toString(16)}` }])}`,
      );
      return mine(1);
    }
    case 'mine':
      return mine(Number(args[0] ?? 1));
    case 'address':
      return console.log((await node.call<string[]>('eth_accounts'))[1]);
    case 'balance':
      return console.log(minorToDecimal(await node.balance(args[0]!), 18));
    case 'stop': {
      const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8')) : null;
      if (!pid) throw new Error('no anvil started here (.regtest-eth/anvil.pid)');
      process.kill(pid, 'SIGTERM');
      fs.rmSync(pidFile);
      return console.log(`stopped anvil (pid ${pid}); its state stays in .regtest-eth/`);
    }
    default:
      throw new Error(
        'npm run regtest:eth -- start | pay <address> <amount> | mine [n] | address | balance <address> | stop',
      );
  }
}

main().catch((error: unknown) => {
  console.error((error as Error).message);
  process.exit(1);
});
