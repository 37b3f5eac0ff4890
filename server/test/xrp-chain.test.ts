/**
 * @jest-environment node
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { networkFeeMinor, setNetworkFee } from '#domain/fees';
import { LSF_REQUIRE_DEST_TAG } from '#domain/xrp';
import { TEST_XPUBS } from '../src/modules/chain/derive';
import { refreshXrpNetworkFee } from '../src/modules/chain/xrp-fees';
import { DEFAULT_XRP_WATCHER_SETTINGS, scanXrp } from '../src/modules/chain/xrp-watcher';
import { xrplNode } from '../src/modules/chain/xrpl-rpc';
import { sharedSignerKey } from '../src/modules/payouts/instruction';
import { TEST_MNEMONIC } from '../src/signer/keys';
import { createXrpSigner, XrpJournal, xrpWallet } from '../src/signer/xrp';
import { xrpWatcherHooks } from '../src/workers/xrp';
import { startFakeXrpl, type FakeXrpl } from './fixtures/fake-xrpl';
import {
  balanceOf,
  bookAddresses,
  confirmSendFromMail,
  databaseKinds,
  fixedRates,
  payOut,
  signerApi,
  testApp,
  testUser,
  type TestApp,
  type TestUser,
} from './helpers';

/**
 * The XRP Ledger half of issue 31: no rippled can run here, so the app (on PGlite, and on
 * PostgreSQL with TEST_DATABASE_URL), its XRP watcher and the signer talk JSON-RPC over HTTP to a
 * small server that answers as rippled documents it (fixtures/fake-xrpl.ts) and moves on as the
 * test validates ledgers. Every transaction the signer produces is decoded by ripple-binary-codec
 * and its signature verified by ripple-keypairs, which the signer does not use.
 */
const HOUSE = TEST_XPUBS.XRP;
const SENDER = 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
const OUTSIDE = 'rLHzPsX6oXkzU2qL12kHCH8G8cnZv1rBJh';
const NEW_ACCOUNT = 'rN7n7otQDd6FczFgLdSqtcsAUxDkw6fzRH';
const XRP = 1_000_000n;

describe.each(databaseKinds())('XRP Ledger with recorded rippled answers (%s)', (kind) => {
  let fake: FakeXrpl;
  let t: TestApp;
  let journalFile: string;
  const rates = fixedRates();

  beforeAll(async () => {
    fake = await startFakeXrpl({
      validated: 1000,
      accounts: {
        // Funded with its base reserve only, and the flag set: what docs/chains.md asks of the operator.
        [HOUSE]: { Balance: (1n * XRP).toString(), Sequence: 40, Flags: LSF_REQUIRE_DEST_TAG, OwnerCount: 0 },
        [SENDER]: { Balance: (100_000n * XRP).toString(), Sequence: 7, Flags: 0, OwnerCount: 0 },
        [OUTSIDE]: { Balance: (50n * XRP).toString(), Sequence: 3, Flags: 0, OwnerCount: 0 },
      },
    });
    t = await testApp(kind, { CHAIN_RPC_URL_XRP: fake.url, CHAIN_POLL_MS: '0', RECONCILE_INTERVAL_MS: '0' }, { rates });
    journalFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-signer-xrp-')), 'signer-journal-xrp.jsonl');
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const node = () => xrplNode(fake.url);
  const scan = () =>
    scanXrp(t.app.db, node(), xrpWatcherHooks(rates), { ...DEFAULT_XRP_WATCHER_SETTINGS, house: HOUSE });
  const api = signerApi(() => t);
  const logs: string[] = [];
  const signer = (beforeReport?: () => Promise<void>) =>
    createXrpSigner({
      ...(beforeReport ? { beforeReport } : {}),
      api,
      node: node(),
      wallet: xrpWallet(TEST_MNEMONIC, HOUSE),
      journal: new XrpJournal(journalFile),
      macKey: sharedSignerKey(t.config),
      feeCap: t.config.XRP_FEE_CAP_DROPS,
      ledgerMargin: t.config.XRP_LEDGER_MARGIN,
      log: (message) => void logs.push(message),
    });
  const balance = async (user: TestUser) => (await balanceOf(t, user.headers, 'XRP')) ?? '0.000000';
  const tagOf = (user: TestUser) => Number(user.address.split(':')[1]);
  type OutputRow = { txid: string; status: string; unmatched_reason: string | null; address: string; amount: string };
  const output = async (hash: string) =>
    (
      (await t.app.db.execute(
        sql`select txid, status, unmatched_reason, address, amount::text from chain_outputs where currency = 'XRP' and txid = ${hash}`,
      )) as unknown as { rows: OutputRow[] }
    ).rows[0];
  const transferIds = async (like: string) =>
    (
      (await t.app.db.execute(sql`select id from ledger_transfers where id like ${like} order by id`)) as unknown as {
        rows: { id: string }[];
      }
    ).rows.map((r) => r.id);
  type PayoutRow = {
    id: string;
    status: string;
    txid: string | null;
    chain_fee: string | null;
    failure_reason: string | null;
  };
  const payoutOfSend = async (sendId: string) =>
    (
      (await t.app.db.execute(
        sql`select id, status, txid, chain_fee::text, failure_reason from payouts where send_id = ${sendId}`,
      )) as unknown as { rows: PayoutRow[] }
    ).rows[0]!;
  async function sendOut(user: TestUser, address: string, amount: string): Promise<string> {
    await bookAddresses(t, user, [{ currency: 'XRP', address }]);
    const started = await t.app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      headers: user.headers,
      payload: { currency: 'XRP', address, amount },
    });
    expect(started.statusCode).toBe(201);
    const id = started.json().id as string;
    expect((await confirmSendFromMail(t, user, id)).statusCode).toBe(200);
    expect(await payOut(t)).toBeGreaterThan(0);
    return id;
  }
  /** Decodes a submitted blob with ripple-binary-codec, checks its signature with ripple-keypairs and the fields Muntly sets. */
  function checkedByOthers(index: number, type = 'Payment') {
    const sent = fake.submitted[index]!;
    expect(sent.signatureValid).toBe(true);
    expect(sent.signerAddress).toBe(HOUSE);
    const d = sent.decoded;
    expect(d.TransactionType).toBe(type);
    expect(d.Account).toBe(HOUSE);
    if (type === 'Payment') expect(typeof d.Amount).toBe('string');
    expect((Number(d.Flags) & 0x00020000) === 0).toBe(true); // never a partial payment
    return d as {
      Account: string;
      Destination: string;
      DestinationTag?: number;
      Amount: string;
      Fee: string;
      Sequence: number;
      LastLedgerSequence: number;
    };
  }

  it('refuses a server of another network at start-up; accepts one that does not say, with a warning', async () => {
    const testnet = await startFakeXrpl({ networkId: 1 });
    const unsaid = await startFakeXrpl({ networkId: null });
    try {
      await expect(testApp(kind, { CHAIN_RPC_URL_XRP: testnet.url, CHAIN_POLL_MS: '0' })).rejects.toThrow(
        'CHAIN_RPC_URL_XRP is a server of XRP Ledger network 1 (testnet), but CHAIN_NETWORK is mainnet',
      );
      const other = await testApp(kind, {
        CHAIN_RPC_URL_XRP: unsaid.url,
        CHAIN_POLL_MS: '0',
        RECONCILE_INTERVAL_MS: '0',
      });
      await other.close();
    } finally {
      await testnet.close();
      await unsaid.close();
    }
  });

  it('credits delivered_amount of validated tesSUCCESS payments by tag; queues tagless and unknown tags; ignores failed and issued-currency ones; pages with marker; once per hash', async () => {
    const user = await testUser(t, 'xrp-deposit@example.com', { address: 'XRP' });
    expect(user.address).toMatch(new RegExp(`^${HOUSE}:\\d+$`));
    const tag = tagOf(user);
    fake.validated = 1010;
    const normal = fake.pay({ from: SENDER, to: HOUSE, amount: '25000000', tag, ledger: 1002, sourceTag: 12 });
    // A partial payment: says 1,000 XRP, delivers one drop.
    const partial = fake.pay({
      from: SENDER,
      to: HOUSE,
      amount: '1000000000',
      delivered: '1',
      flags: 0x00020000,
      tag,
      ledger: 1003,
    });
    const tagless = fake.pay({ from: SENDER, to: HOUSE, amount: '3000000', ledger: 1004, sourceTag: 77 });
    const unknownTag = fake.pay({ from: SENDER, to: HOUSE, amount: '4000000', tag: 999_999, ledger: 1005 });
    const failed = fake.pay({
      from: SENDER,
      to: HOUSE,
      amount: '5000000',
      tag,
      result: 'tecUNFUNDED_PAYMENT',
      ledger: 1006,
    });
    const issued = fake.pay({
      from: SENDER,
      to: HOUSE,
      amount: { currency: 'USD', issuer: OUTSIDE, value: '100' },
      tag,
      ledger: 1007,
    });
    // In the open ledger: not validated yet.
    const later = fake.pay({ from: SENDER, to: HOUSE, amount: '2000000', tag, ledger: 1011 });

    // The server also answers with the open ledger's entry, marked not validated: the watcher stops before it.
    fake.serveOpenLedger = true;
    const first = await scan();
    fake.serveOpenLedger = false;
    expect(first).toMatchObject({
      validated: 1010,
      cursor: 1010,
      credited: 2,
      unmatched: 2,
      ignored: 2,
      requireDestTag: true,
    });
    // account_tx was read forward from the cursor, up to the validated ledger, in pages (marker).
    const reads = fake.calls.filter((c) => c.method === 'account_tx');
    expect(reads.length).toBeGreaterThanOrEqual(3);
    expect(reads[0]!.params).toMatchObject({ account: HOUSE, forward: true, ledger_index_max: 1010 });
    expect(reads.slice(1).every((c) => c.params.marker !== undefined)).toBe(true);

    expect(await balance(user)).toBe('25.000001');
    expect(await transferIds(`chain-deposit:XRP:%`)).toEqual(
      [`chain-deposit:XRP:${normal}`, `chain-deposit:XRP:${partial}`].sort(),
    );
    expect(await output(tagless)).toMatchObject({
      status: 'unmatched',
      unmatched_reason: 'not_expected',
      address: `${HOUSE}:0`,
      amount: '3000000',
    });
    expect(await output(unknownTag)).toMatchObject({
      status: 'unmatched',
      address: `${HOUSE}:999999`,
      amount: '4000000',
    });
    expect(await output(failed)).toBeUndefined();
    expect(await output(issued)).toBeUndefined();
    expect(await output(later)).toBeUndefined();

    // The queue names them with their sender (and the source tag it gave), for the operator who returns it.
    const queue = (await t.app.inject({ url: '/api/ops/chain/unmatched', headers: t.admin })).json().outputs as {
      txid: string;
      address: string;
      amount: string;
      sender: string | null;
    }[];
    expect(queue.map((o) => [o.txid, o.amount, o.sender]).sort()).toEqual(
      [
        [tagless, '3.000000', `${SENDER}:77`],
        [unknownTag, '4.000000', SENDER], // no source tag: the account alone
      ].sort(),
    );
    const [meta] = (
      (await t.app.db.execute(
        sql`select metadata from ledger_transfers where id = ${`chain-unmatched:XRP:${tagless}:0`}`,
      )) as unknown as { rows: { metadata: Record<string, unknown> }[] }
    ).rows;
    expect(meta!.metadata).toMatchObject({ sender: SENDER, senderTag: 77 });

    // Read again from the start (a second replica, a lost cursor): nothing is booked twice.
    await t.app.db.execute(sql`delete from chain_blocks where currency = 'XRP'`);
    await t.app.db.execute(sql`insert into chain_blocks (currency, height, hash) values ('XRP', 1000, '')`);
    expect(await scan()).toMatchObject({ credited: 0, unmatched: 0 });
    expect(await balance(user)).toBe('25.000001');

    // The open ledger is validated: the payment in it is credited now.
    fake.validated = 1012;
    expect(await scan()).toMatchObject({ credited: 1, cursor: 1012 });
    expect(await balance(user)).toBe('27.000001');

    // The wallet's Receive page: a validated deposit is final, nothing waits in "n of N".
    const { addresses } = (await t.app.inject({ url: '/api/wallet/addresses', headers: user.headers })).json() as {
      addresses: { address: string; incoming?: unknown[] }[];
    };
    expect(addresses.find((a) => a.address === user.address)?.incoming ?? []).toEqual([]);

    // An operator assigns one, returns the other to the address and tag its sender names.
    const assigned = await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain/unmatched/assign',
      headers: t.admin,
      payload: { currency: 'XRP', txid: unknownTag, vout: 0, email: user.email },
    });
    expect(assigned.statusCode).toBe(200);
    expect(await balance(user)).toBe('31.000001');
    const toHouse = await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain/unmatched/return',
      headers: t.admin,
      payload: { currency: 'XRP', txid: tagless, vout: 0, destination: `${HOUSE}:5` },
    });
    expect(toHouse.json().error.code).toBe('invalid_address');
  });

  it('pays a payout signed offline (decoded and verified by others), sends the same blob again while valid, completes it once validated', async () => {
    const user = await testUser(t, 'xrp-payout@example.com', { address: 'XRP' });
    fake.validated = 1020;
    fake.pay({ from: SENDER, to: HOUSE, amount: '40000000', tag: tagOf(user), ledger: 1020 });
    await scan();
    expect(await balance(user)).toBe('40.000000');

    const sendId = await sendOut(user, `${OUTSIDE}:4242`, '10');
    expect((await payoutOfSend(sendId)).status).toBe('submitted');
    expect(await signer().run()).toMatchObject({ paid: 1 });
    const tx = checkedByOthers(fake.submitted.length - 1);
    const hash = fake.submitted[fake.submitted.length - 1]!.hash;
    expect(tx).toMatchObject({
      Destination: OUTSIDE,
      DestinationTag: 4242,
      Amount: '10000000',
      Fee: '10',
      Sequence: 40,
      LastLedgerSequence: 1020 + t.config.XRP_LEDGER_MARGIN,
    });
    expect(await payoutOfSend(sendId)).toMatchObject({
      status: 'broadcast',
      txid: hash.toLowerCase(),
      chain_fee: '10',
    });
    // The journal holds it, flushed, before it was submitted.
    expect(fs.readFileSync(journalFile, 'utf8')).toContain(hash.toLowerCase());

    // Not validated yet: sent again, the same blob (same hash, same Sequence).
    fake.validated = 1021;
    await signer().run();
    expect(fake.submitted[fake.submitted.length - 1]!.hash).toBe(hash);
    expect(fake.submitted[fake.submitted.length - 1]!.blob).toBe(fake.submitted[fake.submitted.length - 2]!.blob);

    // Validated with tesSUCCESS: completed; the watcher knows the hash as a payout's (no alert).
    fake.apply(hash, 'tesSUCCESS', 1022);
    fake.validated = 1022;
    expect(await signer().run()).toMatchObject({ completed: 1 });
    expect((await payoutOfSend(sendId)).status).toBe('completed');
    await scan();
    const alerts = (await t.app.inject({ url: '/api/ops/chain/alerts', headers: t.admin })).json().alerts as {
      kind: string;
    }[];
    expect(alerts.filter((a) => a.kind === 'house_account')).toEqual([]);
    expect(await balance(user)).toBe('29.999988'); // 10 XRP and the 12-drop network fee
  });

  it('fails a payout whose LastLedgerSequence passed without it (money back), and one validated with a tec result (the fee is the house’s)', async () => {
    const user = await testUser(t, 'xrp-fail@example.com', { address: 'XRP' });
    fake.validated = 1030;
    fake.pay({ from: SENDER, to: HOUSE, amount: '30000000', tag: tagOf(user), ledger: 1030 });
    await scan();

    const expiring = await sendOut(user, `${OUTSIDE}:1`, '5');
    expect(await signer().run()).toMatchObject({ paid: 1 });
    const expired = checkedByOthers(fake.submitted.length - 1);
    // The network never takes it; a validated ledger passes its LastLedgerSequence.
    fake.validated = expired.LastLedgerSequence + 1;
    expect(await signer().run()).toMatchObject({ failed: 1 });
    expect(await payoutOfSend(expiring)).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('LastLedgerSequence'),
    });
    expect(await balance(user)).toBe('30.000000');

    const tec = await sendOut(user, `${OUTSIDE}:2`, '6');
    expect(await signer().run()).toMatchObject({ paid: 1 });
    const sent = fake.submitted[fake.submitted.length - 1]!;
    // The expired one used no Sequence: the next takes the same.
    expect(checkedByOthers(fake.submitted.length - 1).Sequence).toBe(expired.Sequence);
    fake.apply(sent.hash, 'tecUNFUNDED_PAYMENT', fake.validated + 1);
    fake.validated += 1;
    expect(await signer().run()).toMatchObject({ failed: 1 });
    expect(await payoutOfSend(tec)).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('tecUNFUNDED_PAYMENT'),
    });
    expect(await balance(user)).toBe('30.000000');
    expect(await scan()).toMatchObject({ fees: 1 });
    expect(await transferIds(`chain-fee:XRP:${sent.hash.toLowerCase()}`)).toHaveLength(1);
  });

  it('a signer killed between submitting and reporting reports the journal’s transaction on its next run, never a second one; an unmatched payment goes back to the address and tag its sender names', async () => {
    const user = await testUser(t, 'xrp-crash@example.com', { address: 'XRP' });
    fake.validated += 1;
    fake.pay({ from: SENDER, to: HOUSE, amount: '20000000', tag: tagOf(user), ledger: fake.validated });
    const tagless = fake.pay({ from: SENDER, to: HOUSE, amount: '8000000', ledger: fake.validated, sourceTag: 31 });
    await scan();

    const sendId = await sendOut(user, `${OUTSIDE}:3`, '2');
    const before = fake.submitted.length;
    await expect(
      signer(async () => {
        throw new Error('killed');
      }).run(),
    ).rejects.toThrow('killed');
    expect(fake.submitted.length).toBe(before + 1);
    expect((await payoutOfSend(sendId)).status).toBe('submitted');
    expect(await signer().run()).toMatchObject({ reported: 1, paid: 0 });
    const [first, again] = fake.submitted.slice(before);
    expect(again!.hash).toBe(first!.hash);
    expect(await payoutOfSend(sendId)).toMatchObject({ status: 'broadcast', txid: first!.hash.toLowerCase() });
    fake.validated += 1;
    fake.apply(first!.hash, 'tesSUCCESS', fake.validated);
    expect(await signer().run()).toMatchObject({ completed: 1 });

    // Returned to the sender's account with the tag the sender names (not guessed: here 31, what it sent as SourceTag).
    const returned = await t.app.inject({
      method: 'POST',
      url: '/api/ops/chain/unmatched/return',
      headers: t.admin,
      payload: { currency: 'XRP', txid: tagless, vout: 0, destination: `${SENDER}:31` },
    });
    expect(returned.statusCode).toBe(200);
    expect(await payOut(t)).toBe(1);
    expect(await signer().run()).toMatchObject({ paid: 1 });
    expect(checkedByOthers(fake.submitted.length - 1)).toMatchObject({
      Destination: SENDER,
      DestinationTag: 31,
      Amount: (8_000_000n - 12n).toString(),
    });
    fake.validated += 1;
    fake.apply(fake.submitted[fake.submitted.length - 1]!.hash, 'tesSUCCESS', fake.validated);
    expect(await signer().run()).toMatchObject({ completed: 1 });
    expect(await output(tagless)).toMatchObject({ status: 'returned' });
  });

  it('refuses before signing a payout below the base reserve to an account that does not exist; the reconciliation counts the reserve out', async () => {
    const user = await testUser(t, 'xrp-reserve@example.com', { address: 'XRP' });
    fake.validated += 1;
    fake.pay({ from: SENDER, to: HOUSE, amount: '3000000', tag: tagOf(user), ledger: fake.validated });
    await scan();
    const before = fake.submitted.length;
    const sendId = await sendOut(user, `${NEW_ACCOUNT}:9`, '0.5');
    expect(await signer().run()).toMatchObject({ failed: 1, paid: 0 });
    expect(fake.submitted.length).toBe(before);
    expect(await payoutOfSend(sendId)).toMatchObject({
      status: 'failed',
      failure_reason: expect.stringContaining('base reserve'),
    });

    // Everything booked so far is on the house account, above its 1 XRP reserve.
    const reconciled = (
      await t.app.inject({ method: 'POST', url: '/api/ops/chain/reconcile', headers: t.admin })
    ).json().results as { currency: string; ok: boolean; difference: string }[];
    expect(reconciled).toEqual([expect.objectContaining({ currency: 'XRP', ok: true, difference: '0.000000' })]);

    // Money on the house account no booking explains is a difference, alerted once.
    const house = fake.accounts.get(HOUSE)!;
    fake.accounts.set(HOUSE, { ...house, Balance: (BigInt(house.Balance) + 7n).toString() });
    for (let i = 0; i < 2; i++) {
      const [result] = (
        await t.app.inject({ method: 'POST', url: '/api/ops/chain/reconcile', headers: t.admin })
      ).json().results as { ok: boolean; difference: string }[];
      expect(result).toMatchObject({ ok: false, difference: '0.000007' });
    }
    const alerts = (await t.app.inject({ url: '/api/ops/chain/alerts', headers: t.admin })).json().alerts as {
      kind: string;
      currency: string;
    }[];
    expect(alerts.filter((a) => a.kind === 'reconciliation' && a.currency === 'XRP')).toHaveLength(1);
    fake.accounts.set(HOUSE, house);
  });

  it('alerts once while the house account does not require destination tags', async () => {
    const house = fake.accounts.get(HOUSE)!;
    fake.accounts.set(HOUSE, { ...house, Flags: 0 });
    expect(await scan()).toMatchObject({ requireDestTag: false });
    await scan();
    const alerts = (await t.app.inject({ url: '/api/ops/chain/alerts', headers: t.admin })).json().alerts as {
      kind: string;
      detail: { reason: string };
    }[];
    expect(
      alerts.filter((a) => a.kind === 'house_account' && a.detail.reason === 'require_dest_tag_unset'),
    ).toHaveLength(1);

    // The signer sets it (npm run signer -- xrp-require-dest-tag): an AccountSet with SetFlag 1, its fee the house's.
    const sent = await signer().requireDestinationTag();
    expect(sent).toMatchObject({ engineResult: 'tesSUCCESS' });
    const d = checkedByOthers(fake.submitted.length - 1, 'AccountSet') as unknown as { SetFlag: number; Fee: string };
    expect(d.SetFlag).toBe(1);
    fake.validated += 1;
    fake.apply(sent!.hash, 'tesSUCCESS', fake.validated);
    fake.accounts.set(HOUSE, { ...fake.accounts.get(HOUSE)!, Flags: LSF_REQUIRE_DEST_TAG });
    expect(await scan()).toMatchObject({ requireDestTag: true, fees: 1 });
    expect(await signer().requireDestinationTag()).toBeNull();
    const [reconciled] = (
      await t.app.inject({ method: 'POST', url: '/api/ops/chain/reconcile', headers: t.admin })
    ).json().results as { ok: boolean }[];
    expect(reconciled).toMatchObject({ ok: true });
  });

  it('charges users the fee the signer will pay, from the server’s open-ledger fee with the margin, capped', async () => {
    try {
      fake.openLedgerFee = 5000n;
      expect(await refreshXrpNetworkFee(node(), t.config.XRP_FEE_CAP_DROPS, t.config.NETWORK_FEE_MARGIN_PERCENT)).toBe(
        1200n,
      );
      expect(networkFeeMinor('XRP')).toBe(1200n);
    } finally {
      fake.openLedgerFee = 10n;
      setNetworkFee('XRP', null);
    }
  });

  it('the signer refuses a seed whose XRP key is not XRP_ADDRESS', () => {
    expect(() => xrpWallet(TEST_MNEMONIC, OUTSIDE)).toThrow(`not XRP_ADDRESS ${OUTSIDE}`);
  });
});
