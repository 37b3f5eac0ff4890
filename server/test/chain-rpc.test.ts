/**
 * @jest-environment node
 */
import { setChainNetwork } from '#domain/networks';
import { networkFeeFrom } from '../src/modules/chain/fees';
import { nodeBlockSource } from '../src/modules/chain/nodes';
import { NodeError, rpcNode } from '../src/modules/chain/rpc';

/**
 * The node client against the answers of the nodes the regtest suite cannot run (npm run
 * test:chain runs Litecoin Core 0.21 itself): Bitcoin Core ≥ 22 (`scriptPubKey.address`),
 * Dogecoin Core 1.14 (`getblock` takes a boolean only, transactions by `getrawtransaction`) and
 * Bitcoin Cash Node (cashaddr addresses with their prefix). The answers are in the shape each
 * node's RPC documentation gives, numbers written as the node writes them (8 decimals, unquoted).
 */
type Answer = { result?: string; error?: { code: number; message: string } };

function fakeNode(answers: Record<string, (params: unknown[]) => Answer>) {
  const calls: { method: string; params: unknown[]; authorization: string | null }[] = [];
  const fetch = (async (_url: string, init: { body: string; headers: Record<string, string> }) => {
    const { method, params } = JSON.parse(init.body) as { method: string; params: unknown[] };
    calls.push({ method, params, authorization: init.headers.authorization ?? null });
    const answer = answers[method]?.(params) ?? { error: { code: -32601, message: 'Method not found' } };
    // The node's JSON, numbers as it writes them: built as text, never through a JS number.
    const body = `{"result":${answer.result ?? 'null'},"error":${answer.error ? JSON.stringify(answer.error) : 'null'},"id":1}`;
    return new Response(body, { status: answer.error ? 500 : 200, headers: { 'content-type': 'application/json' } });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

afterEach(() => setChainNetwork('mainnet'));

describe('the node client reads every dialect it serves', () => {
  it('Bitcoin Core ≥ 22: the address in scriptPubKey.address, amounts to the satoshi (0.00000010 is 10, not 1e-7)', async () => {
    const { fetch, calls } = fakeNode({
      getblock: () => ({
        result: `{"hash":"${'b'.repeat(64)}","height":850000,"previousblockhash":"${'a'.repeat(64)}","tx":[
          {"txid":"${'1'.repeat(64)}","vin":[{"coinbase":"03d0f80c","sequence":4294967295}],"vout":[{"value":3.12500000,"n":0,"scriptPubKey":{"asm":"0 a3c6b1ee4a49d9f2af3b38029747449fa9241649","desc":"addr(bc1q50rtrmj2f8vl9tem8qpfw36ylw5jg9j29e5za5)#xxxxxxxx","hex":"0014a3c6b1ee4a49d9f2af3b38029747449fa9241649","address":"bc1q50rtrmj2f8vl9tem8qpfw36ylw5jg9j29e5za5","type":"witness_v0_keyhash"}}]},
          {"txid":"${'2'.repeat(64)}","vin":[{"txid":"${'3'.repeat(64)}","vout":1,"scriptSig":{"asm":"","hex":""},"sequence":4294967293}],"vout":[
            {"value":0.00000010,"n":0,"scriptPubKey":{"asm":"0 a3c6b1ee4a49d9f2af3b38029747449fa9241649","hex":"0014a3c6b1ee4a49d9f2af3b38029747449fa9241649","address":"BC1Q50RTRMJ2F8VL9TEM8QPFW36YLW5JG9J29E5ZA5","type":"witness_v0_keyhash"}},
            {"value":0.00000000,"n":1,"scriptPubKey":{"asm":"OP_RETURN 6d756e746c79","hex":"6a066d756e746c79","type":"nulldata"}},
            {"value":20999999.97690000,"n":2,"scriptPubKey":{"asm":"","hex":"5120${'c'.repeat(64)}","address":"bc1p${'q'.repeat(58)}","type":"witness_v1_taproot"}}
          ]}
        ]}`,
      }),
    });
    const node = rpcNode('BTC', 'http://muntly:s%40cret@127.0.0.1:8332', { fetch });
    const block = await node.block('b'.repeat(64));
    expect(block).toEqual({
      height: 850000,
      hash: 'b'.repeat(64),
      previousHash: 'a'.repeat(64),
      txs: [
        {
          txid: '1'.repeat(64),
          inputs: [],
          outputs: [{ vout: 0, amount: 312_500_000n, address: 'bc1q50rtrmj2f8vl9tem8qpfw36ylw5jg9j29e5za5' }],
        },
        {
          txid: '2'.repeat(64),
          inputs: [{ txid: '3'.repeat(64), vout: 1 }],
          outputs: [
            // Upper-case bech32 is the same address: stored in its one canonical form.
            { vout: 0, amount: 10n, address: 'bc1q50rtrmj2f8vl9tem8qpfw36ylw5jg9j29e5za5' },
            { vout: 1, amount: 0n, address: null },
            // Not a valid address for Muntly (a made-up taproot program): no address, nothing matched.
            { vout: 2, amount: 2_099_999_997_690_000n, address: null },
          ],
        },
      ],
    });
    // The credentials go in a Basic header, decoded, and never in the URL the request goes to.
    expect(calls[0]).toEqual({
      method: 'getblock',
      params: ['b'.repeat(64), 2],
      authorization: `Basic ${Buffer.from('muntly:s@cret').toString('base64')}`,
    });
  });

  it('Dogecoin Core 1.14: getblock with a boolean, each transaction by getrawtransaction, addresses in scriptPubKey.addresses', async () => {
    const { fetch, calls } = fakeNode({
      getblock: (params) =>
        typeof params[1] === 'number'
          ? { error: { code: -1, message: 'JSON value is not a boolean as expected' } }
          : {
              result: `{"hash":"${'d'.repeat(64)}","height":5000000,"previousblockhash":"${'e'.repeat(64)}","tx":["${'4'.repeat(64)}"]}`,
            },
      getrawtransaction: () => ({
        result: `{"txid":"${'4'.repeat(64)}","vin":[{"txid":"${'5'.repeat(64)}","vout":0}],"vout":[{"value":1234.56789012,"n":0,"scriptPubKey":{"asm":"OP_DUP OP_HASH160 a3c6b1ee4a49d9f2af3b38029747449fa9241649 OP_EQUALVERIFY OP_CHECKSIG","hex":"76a914a3c6b1ee4a49d9f2af3b38029747449fa924164988ac","reqSigs":1,"type":"pubkeyhash","addresses":["DL54i6msdfchWaR7NHFA41HxSiYciTwhqW"]}}]}`,
      }),
    });
    const node = rpcNode('DOGE', 'http://u:p@127.0.0.1:22555', { fetch });
    const block = await node.block('d'.repeat(64));
    expect(block.txs).toEqual([
      {
        txid: '4'.repeat(64),
        inputs: [{ txid: '5'.repeat(64), vout: 0 }],
        outputs: [{ vout: 0, amount: 123_456_789_012n, address: 'DL54i6msdfchWaR7NHFA41HxSiYciTwhqW' }],
      },
    ]);
    // It learns the dialect once: the next block goes straight to the boolean form.
    await node.block('d'.repeat(64));
    expect(calls.map((c) => `${c.method}:${String(c.params[1])}`)).toEqual([
      'getblock:2',
      'getblock:true',
      'getrawtransaction:true',
      'getblock:true',
      'getrawtransaction:true',
    ]);
  });

  it('Dogecoin Core 1.14 has no testmempoolaccept: the node cannot tell (null), a refusal comes at broadcast; Bitcoin Core answers why', async () => {
    const doge = rpcNode('DOGE', 'http://u:p@127.0.0.1:22555', fakeNode({}));
    expect(await doge.mempoolAccept('00')).toBeNull();
    const core = rpcNode(
      'BTC',
      'http://u:p@127.0.0.1:8332',
      fakeNode({
        testmempoolaccept: () => ({
          result: `[{"txid":"${'7'.repeat(64)}","allowed":false,"reject-reason":"min relay fee not met"}]`,
        }),
      }),
    );
    expect(await core.mempoolAccept('00')).toEqual({ allowed: false, reason: 'min relay fee not met' });
  });

  it('Bitcoin Cash Node: cashaddr with its prefix, on the network Muntly runs on', async () => {
    setChainNetwork('regtest');
    const answer = (prefix: string) => ({
      result: `{"hash":"${'f'.repeat(64)}","height":120,"previousblockhash":"${'0'.repeat(64)}","tx":[{"txid":"${'6'.repeat(64)}","vin":[],"vout":[{"value":0.50000000,"n":0,"scriptPubKey":{"type":"pubkeyhash","addresses":["${prefix === 'bchreg' ? 'bchreg:qz3udv0wffyanu408vuq9968gj06jfqkfyvxvz05wp' : 'bitcoincash:qz3udv0wffyanu408vuq9968gj06jfqkfyjg7yws2m'}"]}}]}]}`,
    });
    const regtest = rpcNode('BCH', 'http://u:p@127.0.0.1:18443', fakeNode({ getblock: () => answer('bchreg') }));
    expect((await regtest.block('f'.repeat(64))).txs[0]!.outputs).toEqual([
      { vout: 0, amount: 50_000_000n, address: 'bchreg:qz3udv0wffyanu408vuq9968gj06jfqkfyvxvz05wp' },
    ]);
    // A mainnet address in a regtest node's answer is no house address: not matched.
    const mainnet = rpcNode('BCH', 'http://u:p@127.0.0.1:18443', fakeNode({ getblock: () => answer('bitcoincash') }));
    expect((await mainnet.block('f'.repeat(64))).txs[0]!.outputs[0]!.address).toBeNull();
  });

  it('names the network in Muntly’s words, and the fee rate per byte, rounded up', async () => {
    const node = rpcNode(
      'LTC',
      'http://u:p@127.0.0.1:9332',
      fakeNode({
        getblockchaininfo: () => ({ result: '{"chain":"main","blocks":2800000,"bestblockhash":"aa"}' }),
        estimatesmartfee: () => ({ result: '{"feerate":0.00010001,"blocks":6}' }),
      }),
    );
    expect(await node.network()).toBe('mainnet');
    // 0.00010001 LTC per kvB = 10,001 litoshi per 1,000 vB: 11 per vB (rounded up, never under).
    expect(await node.feeRate(6)).toBe(11n);
  });

  it('an estimate the node cannot make is null; an error is a NodeError naming the coin; a wrong password is said so', async () => {
    const node = rpcNode(
      'LTC',
      'http://u:p@127.0.0.1:9332',
      fakeNode({
        estimatesmartfee: () => ({ result: '{"errors":["Insufficient data or no feerate found"],"blocks":0}' }),
      }),
    );
    expect(await node.feeRate(6)).toBeNull();
    await expect(node.call('nonsense')).rejects.toEqual(new NodeError('LTC node: Method not found', -32601));
    const refused = rpcNode('LTC', 'http://u:wrong@127.0.0.1:9332', {
      fetch: (async () => new Response('', { status: 401 })) as unknown as typeof globalThis.fetch,
    });
    await expect(refused.tip()).rejects.toThrow('LTC node refused the credentials (HTTP 401)');
  });
});

describe('the network fee charged from a node’s estimate', () => {
  it('is the estimate held between floor and cap, times a typical payout’s size, plus the margin, rounded up', () => {
    // 11 litoshi/vB × 141 vB = 1,551; + 20 % = 1,861.2 → 1,862.
    expect(networkFeeFrom('LTC', 11n, 20)).toBe(1_862n);
    // No estimate: the floor. An absurd one: the cap (LTC 200/vB).
    expect(networkFeeFrom('LTC', null, 0)).toBe(141n);
    expect(networkFeeFrom('LTC', 1_000_000n, 0)).toBe(28_200n);
    // Dogecoin pays by its own floor (1,000 koinu/B) on a legacy payout's 226 bytes.
    expect(networkFeeFrom('DOGE', null, 0)).toBe(226_000n);
  });
});

describe('the faucet’s blocks from Muntly’s own Bitcoin node', () => {
  it('are the node’s block hashes, under a name that says the network; a height above the tip is no block yet', async () => {
    const hash = 'ab'.repeat(32);
    const node = rpcNode(
      'BTC',
      'http://u:p@127.0.0.1:18443',
      fakeNode({
        getblockchaininfo: () => ({ result: `{"chain":"regtest","blocks":120,"bestblockhash":"${hash}"}` }),
        getblockhash: (params) =>
          params[0] === 120 ? { result: `"${hash}"` } : { error: { code: -8, message: 'Block height out of range' } },
      }),
    );
    const regtest = nodeBlockSource(node, 'regtest');
    expect(regtest.name).toBe('bitcoin-regtest');
    expect(nodeBlockSource(node, 'mainnet').name).toBe('bitcoin');
    const db = {} as Parameters<typeof regtest.tip>[0];
    expect(await regtest.tip(db)).toEqual({ height: 120, hash });
    expect(await regtest.block(db, 120)).toEqual({ height: 120, hash });
    expect(await regtest.block(db, 121)).toBeNull();
  });
});
