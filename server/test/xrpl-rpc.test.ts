/**
 * @jest-environment node
 */
import { xrpNetworkFee } from '../src/modules/chain/xrp-fees';
import { checkXrplNetwork, dropsOf, parseEntry, xrplNode, XrplError } from '../src/modules/chain/xrpl-rpc';

/**
 * The XRP Ledger client's reading of rippled's answers (xrpl.org): both API versions of an
 * account_tx entry, amounts as strings of drops (never a float), issued currencies, errors.
 */
describe('XRP Ledger JSON-RPC answers', () => {
  it('reads an account_tx entry of API version 1 (tx with hash and ledger_index inside) and of version 2 (tx_json, DeliverMax)', () => {
    const v1 = parseEntry({
      meta: { TransactionResult: 'tesSUCCESS', delivered_amount: '1' },
      tx: {
        Account: 'rA',
        Amount: '1000000000',
        Destination: 'rB',
        DestinationTag: 7,
        Fee: '12',
        Flags: 131072,
        Sequence: 3,
        TransactionType: 'Payment',
        hash: 'ABCD',
        ledger_index: 90,
      },
      validated: true,
    });
    expect(v1).toMatchObject({
      hash: 'abcd',
      ledgerIndex: 90,
      validated: true,
      amount: '1000000000',
      delivered: '1',
      destinationTag: 7,
      fee: 12n,
      flags: 131072,
      result: 'tesSUCCESS',
    });
    const v2 = parseEntry({
      hash: 'EF01',
      ledger_index: 91,
      meta: { TransactionResult: 'tecUNFUNDED_PAYMENT' },
      tx_json: { Account: 'rA', DeliverMax: '5000000', Destination: 'rB', Fee: '10', TransactionType: 'Payment' },
      validated: false,
    });
    expect(v2).toMatchObject({
      hash: 'ef01',
      ledgerIndex: 91,
      validated: false,
      amount: '5000000',
      delivered: null,
      destinationTag: null,
      result: 'tecUNFUNDED_PAYMENT',
    });
  });

  it('takes drops from strings only: an issued currency (an object), "unavailable" or a decimal is no XRP', () => {
    expect(dropsOf('123456789012345678')).toBe(123456789012345678n);
    expect(dropsOf({ currency: 'USD', issuer: 'rX', value: '1' })).toBeNull();
    expect(dropsOf('unavailable')).toBeNull();
    expect(dropsOf('1.5')).toBeNull();
    expect(dropsOf(null)).toBeNull();
  });

  it('charges what the signer will pay (the open-ledger fee, at least the reference fee, at most the cap) plus the margin, rounded up', () => {
    expect(xrpNetworkFee({ openLedger: 10n, base: 10n }, 1000n, 20)).toBe(12n);
    expect(xrpNetworkFee({ openLedger: 5n, base: 10n }, 1000n, 20)).toBe(12n);
    expect(xrpNetworkFee({ openLedger: 5000n, base: 10n }, 1000n, 20)).toBe(1200n);
    expect(xrpNetworkFee({ openLedger: 11n, base: 10n }, 1000n, 0)).toBe(11n);
    expect(xrpNetworkFee({ openLedger: 11n, base: 10n }, 1000n, 10)).toBe(13n); // 12.1, rounded up
  });

  it('fits the server’s network_id to CHAIN_NETWORK', () => {
    expect(checkXrplNetwork(0, 'mainnet')).toEqual({ ok: true, warning: null });
    expect(checkXrplNetwork(1, 'testnet')).toEqual({ ok: true, warning: null });
    expect(checkXrplNetwork(2, 'testnet')).toEqual({ ok: true, warning: null });
    expect(checkXrplNetwork(1, 'mainnet')).toMatchObject({ ok: false });
    expect(checkXrplNetwork(0, 'regtest')).toMatchObject({ ok: false });
    expect(checkXrplNetwork(21338, 'regtest')).toEqual({ ok: true, warning: null });
    expect(checkXrplNetwork(21338, 'mainnet')).toMatchObject({ ok: false });
    expect(checkXrplNetwork(null, 'mainnet')).toMatchObject({
      ok: true,
      warning: expect.stringContaining('does not say its network'),
    });
  });

  it('posts {method, params: [{…}]} and turns an error result into an XrplError with its token; actNotFound is "no account"', async () => {
    const sent: unknown[] = [];
    const answers: Record<string, unknown> = {
      account_info: {
        result: {
          account: 'rX',
          error: 'actNotFound',
          error_code: 19,
          error_message: 'Account not found.',
          status: 'error',
        },
      },
      fee: {
        result: { error: 'slowDown', error_message: 'You are placing too much load on the server.', status: 'error' },
      },
    };
    const fetch = (async (_url: string, init: { body: string }) => {
      const body = JSON.parse(init.body) as { method: string };
      sent.push(body);
      return new Response(JSON.stringify(answers[body.method]), { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const node = xrplNode('http://127.0.0.1:5005', { fetch });
    expect(await node.accountInfo('rX', 'validated')).toBeNull();
    expect(sent[0]).toEqual({
      method: 'account_info',
      params: [{ account: 'rX', ledger_index: 'validated', strict: true }],
    });
    const failure = await node.fee().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(XrplError);
    expect((failure as XrplError).error).toBe('slowDown');
  });
});
