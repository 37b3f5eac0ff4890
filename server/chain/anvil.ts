import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { ethNode, type EthNode } from '../src/modules/chain/ethereum';
import { freePort } from './litecoind';

/**
 * A real EVM node for the ether suite: anvil (Foundry, node_modules/.bin/anvil) on a free port,
 * mining only when told (anvil_mine), with its default mnemonic ("test … junk"), not the house's
 * "abandon … about": users' deposit addresses start empty. Its accounts are unlocked: they are the
 * outside world that pays Muntly and is paid by it. Stopped by its pid.
 */
export type Anvil = {
  url: string;
  node: EthNode;
  /** The funded outside accounts. */
  accounts: string[];
  call<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** eth_sendTransaction from an unlocked account; the txid. */
  send(tx: { from?: string; to?: string; value?: bigint; data?: string; gas?: bigint }): Promise<string>;
  mine(blocks: number): Promise<void>;
  balance(address: string): Promise<bigint>;
  stop(): Promise<void>;
};

const hex = (value: bigint | number) => `0x${value.toString(16)}`;

export async function startAnvil(): Promise<Anvil> {
  const port = await freePort();
  const bin = path.join(__dirname, '../../node_modules/.bin/anvil');
  const child: ChildProcess = spawn(
    bin,
    ['--port', String(port), '--host', '127.0.0.1', '--no-mining', '--silent', '--chain-id', '31337'],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  const node = ethNode(url, { warn: () => undefined });
  const started = Date.now();
  for (;;) {
    try {
      await node.call('eth_chainId');
      break;
    } catch (error) {
      if (Date.now() - started > 30_000) throw new Error('anvil did not answer in 30 s', { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const accounts = await node.call<string[]>('eth_accounts');
  return {
    url,
    node,
    accounts,
    call: (method, params = []) => node.call(method, params),
    send: (tx) =>
      node.call<string>('eth_sendTransaction', [
        {
          from: tx.from ?? accounts[0],
          ...(tx.to ? { to: tx.to } : {}),
          ...(tx.value !== undefined ? { value: hex(tx.value) } : {}),
          ...(tx.data ? { data: tx.data } : {}),
          ...(tx.gas ? { gas: hex(tx.gas) } : {}),
        },
      ]),
    mine: async (blocks) => {
      await node.call('anvil_mine', [hex(blocks)]);
    },
    balance: (address) => node.balance(address),
    async stop() {
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    },
  };
}

/** Creation code that deploys `runtime` (hex, no 0x): CODECOPY it to memory and RETURN it. */
export function deployCode(runtime: string): string {
  const length = (runtime.length / 2).toString(16).padStart(2, '0');
  return `0x60${length}600c60003960${length}6000f3${runtime}`;
}

/** A contract that forwards whatever ether it gets to `to` (a CALL with the value): an internal transfer. */
export function forwarder(to: string, thenRevert = false): string {
  // PUSH1 0 ×4 (ret size, ret offset, args size, args offset), CALLVALUE, PUSH20 to, GAS, CALL, POP
  const call = `60006000600060003473${to.slice(2).toLowerCase()}5af150`;
  // Then STOP, or REVERT(0, 0): the transaction fails, and the forwarded ether with it.
  return call + (thenRevert ? '60006000fd' : '00');
}

/** A contract that refuses every call (REVERT(0, 0)): a payout to it cannot be made. */
export const REVERTER = '60006000fd';
