import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { rpcNode, type CoinNode } from '../src/modules/chain/rpc';

/**
 * A real `litecoind -regtest` for the chain suites (Debian's litecoind 0.21, a Bitcoin Core fork):
 * on free ports, in a temporary directory, with a wallet ("miner") holding the first 101 blocks'
 * coins, stopped by its pid. `-walletrbf` lets the suites replace their own transactions (a
 * double spend after a reorg); `-txindex` lets them look any transaction up.
 */
export type Litecoind = {
  url: string;
  node: CoinNode;
  /** The node's own wallet: the outside world that pays Muntly and is paid by it. */
  wallet<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  mine(blocks: number): Promise<string[]>;
  stop(): Promise<void>;
};

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startLitecoind(): Promise<Litecoind> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-ltc-'));
  const rpcPort = await freePort();
  const p2pPort = await freePort();
  const child: ChildProcess = spawn(
    'litecoind',
    [
      '-regtest',
      `-datadir=${dir}`,
      '-rpcuser=muntly',
      '-rpcpassword=regtest',
      `-rpcport=${rpcPort}`,
      `-port=${p2pPort}`,
      '-listen=0',
      '-fallbackfee=0.0002',
      '-walletrbf=1',
      '-mempoolreplacement=1',
      '-txindex=1',
      '-printtoconsole=0',
    ],
    { stdio: 'ignore' },
  );
  const url = `http://muntly:regtest@127.0.0.1:${rpcPort}`;
  const node = rpcNode('LTC', url);
  const started = Date.now();
  for (;;) {
    try {
      await node.call('getblockchaininfo');
      break;
    } catch (error) {
      if (Date.now() - started > 30_000) throw new Error('litecoind did not answer in 30 s', { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await node.call('createwallet', ['miner']);
  const walletNode = rpcNode('LTC', `${url}/wallet/miner`);
  const minerAddress = await walletNode.call<string>('getnewaddress');
  const mine = (blocks: number) => node.call<string[]>('generatetoaddress', [blocks, minerAddress]);
  await mine(101);
  return {
    url,
    node,
    wallet: (method, params = []) => walletNode.call(method, params),
    mine,
    async stop() {
      await node.call('stop').catch(() => undefined);
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
