/**
 * @jest-environment node
 */
import { eip1559Fees, ethNode } from '../src/modules/chain/ethereum';

/**
 * The Ethereum node client against answers in the shape geth documents (the chain suite runs anvil
 * itself): what counts as ether arriving at an address, in a call tree with reverted and
 * value-less calls; a node without eth_getBlockReceipts; quantities beyond 2^53 read exactly.
 */
const A = '0x' + 'a'.repeat(40);
const B = '0x' + 'b'.repeat(40);
const C = '0x' + 'c'.repeat(40);
const CONTRACT = '0x' + 'd'.repeat(40);
const HASH = '0x' + '1'.repeat(64);
const TX1 = '0x' + '2'.repeat(64);
const TX2 = '0x' + '3'.repeat(64);

type Answers = Record<string, (params: unknown[]) => { result?: unknown; error?: { code: number; message: string } }>;
function fakeNode(answers: Answers) {
  const calls: string[] = [];
  const fetch = (async (_url: string, init: { body: string }) => {
    const { method, params, id } = JSON.parse(init.body) as { method: string; params: unknown[]; id: number };
    calls.push(method);
    const answer = answers[method]?.(params) ?? {
      error: { code: -32601, message: `the method ${method} does not exist/is not available` },
    };
    return new Response(JSON.stringify({ jsonrpc: '2.0', id, ...answer }), {
      headers: { 'content-type': 'application/json' },
    });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const block = {
  hash: HASH,
  number: '0x10',
  parentHash: '0x' + '0'.repeat(64),
  transactions: [
    // 12.345678901234567891 ETH: more than 2^53 wei.
    { hash: TX1, from: C, to: A, value: '0xab54a98ceb1f0ad3' },
    { hash: TX2, from: C, to: CONTRACT, value: '0xde0b6b3a7640000' },
  ],
};
const receipts = [
  { transactionHash: TX1, status: '0x1', gasUsed: '0x5208', effectiveGasPrice: '0x3b9aca00' },
  { transactionHash: TX2, status: '0x1', gasUsed: '0x10000', effectiveGasPrice: '0x3b9aca00' },
];
const trace = [
  { txHash: TX1, result: { type: 'CALL', from: C, to: A, value: '0xab54a98ceb1f0ad3' } },
  {
    txHash: TX2,
    result: {
      type: 'CALL',
      from: C,
      to: CONTRACT,
      value: '0xde0b6b3a7640000',
      calls: [
        { type: 'CALL', from: CONTRACT, to: A, value: '0x64' },
        // Reverted: it moved nothing, nor did anything under it.
        {
          type: 'CALL',
          from: CONTRACT,
          to: B,
          value: '0x65',
          error: 'execution reverted',
          calls: [{ type: 'CALL', from: B, to: A, value: '0x66' }],
        },
        // A DELEGATECALL repeats the caller's value in the callTracer: no transfer.
        { type: 'DELEGATECALL', from: CONTRACT, to: B, value: '0x67' },
        { type: 'STATICCALL', from: CONTRACT, to: B },
        {
          type: 'CALL',
          from: CONTRACT,
          to: B,
          value: '0x0',
          calls: [{ type: 'SELFDESTRUCT', from: B, to: A, value: '0x68' }],
        },
      ],
    },
  },
];

describe('the Ethereum node client', () => {
  it('reads top-level and internal transfers as outputs, skipping reverted and value-less calls, in wei exactly', async () => {
    const { fetch } = fakeNode({
      eth_getBlockByHash: () => ({ result: block }),
      eth_getBlockReceipts: () => ({ result: receipts }),
      debug_traceBlockByHash: () => ({ result: trace }),
    });
    const node = ethNode('http://node.test', { fetch });
    const read = await node.block(HASH);
    expect(read.height).toBe(16);
    const [first, second] = read.txs as ((typeof read.txs)[number] & { from: string; fee: bigint; failed: boolean })[];
    expect(first!.outputs).toEqual([
      { vout: 0, amount: 12_345_678_901_234_567_891n, address: expect.stringMatching(/^0x[aA]{40}$/) },
    ]);
    expect(first!.fee).toBe(21_000n * 1_000_000_000n);
    expect(second!.outputs.map((o) => [o.vout, o.amount])).toEqual([
      [0, 1_000_000_000_000_000_000n],
      [1, 100n],
      [2, 104n],
    ]);
    expect(node.traces).toBe(true);
  });

  it('a failed transaction has no outputs; a node without eth_getBlockReceipts nor traces is read receipt by receipt, warned about once', async () => {
    const warnings: string[] = [];
    const { fetch, calls } = fakeNode({
      eth_getBlockByHash: () => ({ result: block }),
      eth_getTransactionReceipt: ([hash]) => ({
        result: { ...receipts.find((r) => r.transactionHash === hash)!, status: hash === TX2 ? '0x0' : '0x1' },
      }),
    });
    const node = ethNode('http://node.test', { fetch, warn: (message) => warnings.push(message) });
    const read = await node.block(HASH);
    await node.block(HASH);
    expect(read.txs[0]!.outputs).toHaveLength(1);
    expect(read.txs[1]!.outputs).toEqual([]);
    expect((read.txs[1] as unknown as { failed: boolean }).failed).toBe(true);
    expect(node.traces).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(calls.filter((m) => m === 'eth_getBlockReceipts' || m === 'debug_traceBlockByHash')).toEqual([
      'eth_getBlockReceipts',
      'debug_traceBlockByHash',
    ]);
  });

  it('names the network by chainId and refuses an unknown chain', async () => {
    for (const [chainId, network] of [
      ['0x1', 'mainnet'],
      ['0xaa36a7', 'testnet'],
      ['0x4268', 'testnet'],
      ['0x7a69', 'regtest'],
    ] as const) {
      const { fetch } = fakeNode({ eth_chainId: () => ({ result: chainId }) });
      expect(await ethNode('http://node.test', { fetch }).network()).toBe(network);
    }
    const { fetch } = fakeNode({ eth_chainId: () => ({ result: '0x89' }) });
    await expect(ethNode('http://node.test', { fetch }).network()).rejects.toThrow('unknown chain (chainId 137)');
  });

  it('fees: twice the next base fee plus the tip, within the operator’s cap', () => {
    expect(eip1559Fees({ baseFee: 10n, priorityFee: 2n }, 1_000n)).toEqual({
      maxFeePerGas: 22n,
      maxPriorityFeePerGas: 2n,
    });
    expect(eip1559Fees({ baseFee: 800n, priorityFee: 2n }, 1_000n)).toEqual({
      maxFeePerGas: 1_000n,
      maxPriorityFeePerGas: 2n,
    });
  });
});
