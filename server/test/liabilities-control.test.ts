/**
 * @jest-environment node
 */
import { randomBytes } from 'node:crypto';
import { Address } from '@scure/btc-signer';
import { Verifier } from 'bip322-js';
import * as bitcoinMessage from 'bitcoinjs-message';
import cashaddr from 'cashaddrjs';
import { sql } from 'drizzle-orm';
import { verifyMessage } from 'ethers';
import * as keypairs from 'ripple-keypairs';
import { addressKey, controlMessage } from '#domain/control';
import { bitcoinLikeNetwork } from '#domain/networks';
import { simulatedChain } from '../src/dev/simulated-chain';
import { TEST_XPUBS } from '../src/modules/chain/service';
import { TEST_MNEMONIC } from '../src/signer/keys';
import { seedControlKeys, signControl, signReserves } from '../src/signer/reserves';
import { databaseKinds, signerApi, testApp, testUser, type TestApp } from './helpers';
import type { ControlRequestsResponse } from '#domain/contracts/control';
import type { ControlProof, SnapshotSummary } from '#domain/contracts/liabilities';

/**
 * Proofs of control of a snapshot's house addresses (issue 32), through the API: the signer's
 * sign-reserves asks what to sign, signs with the keys it derives from its seed and posts; the
 * public list then holds proofs that wallets' own libraries verify. Forged proofs, addresses the
 * snapshot does not list and callers who are not operators are refused, and nothing is stored.
 *
 * The simulated chain lists only the XRP account as the house's: here it reads no balances (as
 * an explorer that does not), so the reserves are what the watcher's tables say, and the test puts
 * coins at house change addresses the API hands out (the change branch, as the signer's change).
 */
const CHANGE_CURRENCIES = ['BTC', 'BTC', 'LTC', 'DOGE', 'BCH', 'ETH'] as const;

/** The verdict of the library each scheme's wallets use, none of which Muntly signs with. */
function independentlyVerified(proof: ControlProof): boolean {
  const key = addressKey(proof.currency, proof.address)!;
  switch (proof.scheme) {
    case 'bip322-simple':
      // bip322-js knows Bitcoin's addresses: the same witness program (the signature does not depend on the network).
      return Verifier.verifySignature(
        Address(bitcoinLikeNetwork('BTC', 'regtest')).encode({
          type: 'wpkh',
          hash: (key as { hash: Uint8Array }).hash,
        }),
        proof.message,
        proof.signature,
      );
    case 'bitcoin-message': {
      const legacy =
        proof.currency === 'BCH'
          ? Address(bitcoinLikeNetwork('BTC')).encode({
              type: 'pkh',
              hash: Uint8Array.from(cashaddr.decode(proof.address).hash),
            })
          : proof.address;
      const prefix =
        proof.currency === 'DOGE'
          ? '\u0019Dogecoin Signed Message:\n'
          : proof.currency === 'LTC'
            ? '\u0019Litecoin Signed Message:\n'
            : '\u0018Bitcoin Signed Message:\n';
      return bitcoinMessage.verify(proof.message, legacy, proof.signature, prefix);
    }
    case 'personal_sign':
      return verifyMessage(proof.message, proof.signature).toLowerCase() === proof.address.toLowerCase();
    case 'xrpl':
      return (
        keypairs.verify(Buffer.from(proof.message).toString('hex'), proof.signature, proof.publicKey!) &&
        keypairs.deriveAddress(proof.publicKey!) === proof.address
      );
  }
}

describe.each(databaseKinds())('proofs of control (%s)', (kind) => {
  let t: TestApp;
  const change: { currency: string; address: string; index: number }[] = [];
  const logs: string[] = [];
  const api = signerApi(() => t);
  const keys = seedControlKeys(TEST_MNEMONIC, TEST_XPUBS);
  const sign = (snapshotId: number) => signReserves({ api, keys, snapshotId, log: (message) => logs.push(message) });

  beforeAll(async () => {
    t = await testApp(kind, {}, { chain: { ...simulatedChain(), balances: async () => null } });
    for (const [i, currency] of CHANGE_CURRENCIES.entries()) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/ops/chain/change-address',
        headers: t.admin,
        payload: { currency },
      });
      expect(res.statusCode).toBe(200);
      const { address, index } = res.json() as { address: string; index: number };
      change.push({ currency, address, index });
      // The watcher's view: a block of the currency, and a change output at the address.
      await t.app.db.execute(
        sql`insert into chain_blocks (currency, height, hash) values (${currency}, 100, ${`block-${currency}`}) on conflict do nothing`,
      );
      await t.app.db.execute(
        sql`insert into chain_outputs (currency, txid, vout, address, amount, height, block_hash, status) values (${currency}, ${randomBytes(32).toString('hex')}, ${i}, ${address}, 1000000, 100, ${`block-${currency}`}, 'change')`,
      );
    }
  });
  afterAll(() => t.close());

  const publish = async (): Promise<SnapshotSummary> => {
    const res = await t.app.inject({ method: 'POST', url: '/api/ops/liabilities/publish', headers: t.admin });
    expect(res.statusCode).toBe(200);
    return res.json() as SnapshotSummary;
  };
  const publicProofs = async (id: number) => {
    const res = await t.app.inject({ url: `/api/liabilities/${id}/control` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { proofs: ControlProof[] }).proofs;
  };
  const post = (id: number, proofs: ControlProof[], headers = t.admin) =>
    t.app.inject({ method: 'POST', url: `/api/ops/liabilities/${id}/control`, headers, payload: { proofs } });
  const requests = async (id: number) =>
    (
      await t.app.inject({ url: `/api/ops/liabilities/${id}/control-requests`, headers: t.admin })
    ).json() as ControlRequestsResponse;

  it('asks the signer for every listed house address: its message, scheme and where its key derives', async () => {
    const snapshot = await publish();
    const asked = await requests(snapshot.snapshotId);
    expect(asked.digest).toBe(snapshot.digest);
    const expected = [
      ...change.map((c) => ({
        currency: c.currency,
        address: c.address,
        role: 'change',
        branch: 'change',
        index: c.index,
        scheme: {
          BTC: 'bip322-simple',
          LTC: 'bip322-simple',
          DOGE: 'bitcoin-message',
          BCH: 'bitcoin-message',
          ETH: 'personal_sign',
        }[c.currency],
      })),
      { currency: 'XRP', address: TEST_XPUBS.XRP, role: 'account', branch: null, index: null, scheme: 'xrpl' },
    ];
    expect(asked.requests.map(({ message: _message, ...rest }) => rest)).toEqual(expect.arrayContaining(expected));
    expect(asked.requests).toHaveLength(expected.length);
    for (const request of asked.requests)
      expect(request.message).toBe(
        controlMessage({
          snapshotId: snapshot.snapshotId,
          digest: snapshot.digest!,
          currency: request.currency,
          address: request.address,
        }),
      );
  });

  it('sign-reserves signs and posts; the public list holds proofs the wallets’ own libraries verify, with one audit row', async () => {
    const snapshot = await publish();
    logs.length = 0;
    expect(await sign(snapshot.snapshotId)).toEqual({ signed: 7, refused: 0, stored: 7, controlled: 7, listed: 7 });
    // Counts only: no key and no signature in what the signer says.
    expect(logs).toEqual([
      `signer: snapshot ${snapshot.snapshotId}: 7 signed, 0 refused; 7 of 7 house address(es) proven`,
    ]);

    const proofs = await publicProofs(snapshot.snapshotId);
    expect(proofs.map((p) => `${p.currency} ${p.address}`).sort()).toEqual(
      [...change.map((c) => `${c.currency} ${c.address}`), `XRP ${TEST_XPUBS.XRP}`].sort(),
    );
    for (const proof of proofs) {
      expect(proof.message).toBe(
        controlMessage({
          snapshotId: snapshot.snapshotId,
          digest: snapshot.digest!,
          currency: proof.currency,
          address: proof.address,
        }),
      );
      expect([proof.scheme, independentlyVerified(proof)]).toEqual([proof.scheme, true]);
    }
    // The same file under the site.
    expect((await t.app.inject({ url: `/proof/${snapshot.snapshotId}/control.json` })).json()).toEqual({ proofs });

    const audit = (
      await t.app.inject({ url: '/api/ops/audit?action=liabilities.control', headers: t.admin })
    ).json() as { entries: { target: string; after: Record<string, unknown> }[] };
    const row = audit.entries.find((e) => e.target === String(snapshot.snapshotId))!;
    expect(row.after).toMatchObject({ digest: snapshot.digest, controlled: 7, listed: 7 });
    expect(JSON.stringify(row.after)).not.toContain(proofs[0]!.signature);

    // Signing again replaces the proofs: still one per address.
    expect(await sign(snapshot.snapshotId)).toMatchObject({ signed: 7, controlled: 7 });
    expect(await publicProofs(snapshot.snapshotId)).toHaveLength(7);
  });

  it('refuses a forged proof with 422 and stores nothing, not even the good proofs posted with it', async () => {
    const snapshot = await publish();
    const { requests: asked } = await requests(snapshot.snapshotId);
    const good = asked.map((request) => {
      const key = keys.keyOf(request);
      if ('refused' in key) throw new Error(key.refused);
      return signControl(request, key);
    });
    const eth = good.find((p) => p.currency === 'ETH')!;
    // r ‖ s ‖ v with one bit of s flipped: a signature, but not the address's key's.
    const forged = {
      ...eth,
      signature: `${eth.signature.slice(0, 100)}${(parseInt(eth.signature[100]!, 16) ^ 1).toString(16)}${eth.signature.slice(101)}`,
    };
    const res = await post(snapshot.snapshotId, [...good.filter((p) => p !== eth), forged]);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'invalid_signature' });
    expect(res.json().error.message).toContain(eth.address);

    // A proof of another snapshot's message, by the right key.
    const other = await publish();
    const stale = await post(other.snapshotId, [good.find((p) => p.currency === 'XRP')!]);
    expect([stale.statusCode, stale.json().error.code]).toEqual([422, 'invalid_signature']);
    // A signature of the right message under the scheme of another kind of address.
    const wrongScheme = await post(snapshot.snapshotId, [
      { ...good.find((p) => p.currency === 'DOGE')!, scheme: 'bip322-simple' },
    ]);
    expect([wrongScheme.statusCode, wrongScheme.json().error.code]).toEqual([422, 'invalid_signature']);

    expect(await publicProofs(snapshot.snapshotId)).toEqual([]);
    expect(await publicProofs(other.snapshotId)).toEqual([]);
    // The good ones alone are stored.
    expect((await post(snapshot.snapshotId, good)).json()).toEqual({ stored: 7, controlled: 7, listed: 7 });
  });

  it('refuses a proof of an address the snapshot does not list, even one the house’s key signed', async () => {
    const snapshot = await publish();
    const unlisted = await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain/change-address',
      headers: t.admin,
      payload: { currency: 'BTC' },
    });
    const { address, index } = unlisted.json() as { address: string; index: number };
    const key = keys.keyOf({ currency: 'BTC', address, role: 'change', branch: 'change', index });
    if ('refused' in key) throw new Error(key.refused);
    const proof = signControl(
      {
        currency: 'BTC',
        address,
        message: controlMessage({
          snapshotId: snapshot.snapshotId,
          digest: snapshot.digest!,
          currency: 'BTC',
          address,
        }),
      },
      key,
    );
    const res = await post(snapshot.snapshotId, [proof]);
    expect([res.statusCode, res.json().error.code]).toEqual([400, 'validation_failed']);
    expect(await publicProofs(snapshot.snapshotId)).toEqual([]);
    // Nor a snapshot that does not exist.
    expect((await post(999_999, [proof])).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/api/ops/liabilities/999999/control-requests', headers: t.admin })).statusCode,
    ).toBe(404);
  });

  it('a signer whose seed is not the house’s signs nothing and posts nothing', async () => {
    const snapshot = await publish();
    const stranger = seedControlKeys(
      'legal winner thank year wave sausage worth useful legal winner thank yellow',
      TEST_XPUBS,
    );
    logs.length = 0;
    expect(
      await signReserves({
        api,
        keys: stranger,
        snapshotId: snapshot.snapshotId,
        log: (message) => logs.push(message),
      }),
    ).toMatchObject({ signed: 0, refused: 7 });
    expect(logs).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^signer: 2 address\(es\) not signed: BTC: .* is not XPUB_BTC/),
        expect.stringMatching(/^signer: 1 address\(es\) not signed: XRP: the seed's XRP key/),
      ]),
    );
    expect(await publicProofs(snapshot.snapshotId)).toEqual([]);
  });

  it('answers only operators', async () => {
    const snapshot = await publish();
    const user = await testUser(t, 'mallory@muntly.test');
    for (const request of [
      { method: 'GET' as const, url: `/api/ops/liabilities/${snapshot.snapshotId}/control-requests` },
      { method: 'POST' as const, url: `/api/ops/liabilities/${snapshot.snapshotId}/control`, payload: { proofs: [] } },
    ]) {
      expect((await t.app.inject(request)).statusCode).toBe(401);
      expect((await t.app.inject({ ...request, headers: user.headers })).statusCode).toBe(403);
    }
  });
});
