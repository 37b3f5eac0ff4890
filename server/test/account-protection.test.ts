/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import { eip55 } from '#domain/addresses';
import {
  balanceOf,
  bearer,
  bookAddresses,
  databaseKinds,
  fixedRates,
  mailedSendCode,
  opsCliOutput,
  signToken,
  testApp,
  testUser,
  type TestApp,
  type TestUser,
} from './helpers';
import type { AddressInfo } from 'node:net';

/**
 * Account protection (issue 19): the address book and its hold, allow-list mode, the freeze by an
 * email's link and the unfreeze, the cool-downs, the anti-phishing phrase and step-up for sends.
 * BTC is at 80,000 EUR (fixedRates): 0.001 BTC is 80 EUR; this suite asks a second factor above 100 EUR.
 */
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const BECH32 = 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4';
const XRP_ACCOUNT = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const ETH_LOWER = '0x52908400098527886e0f7030069857d2e4169ee7';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const DAY_S = 86_400;
const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const REPORT_SECRET = 'a-sign-in-report-secret-of-at-least-32-characters';

type Mail = { subject: string; body: string; html: string };

describe.each(databaseKinds())('account protection (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(
      kind,
      {
        SEND_SECOND_FACTOR_ABOVE_EUR: '100',
        AUTH_CLAIM_NAMESPACE: 'https://muntly.test/',
        SIGN_IN_REPORT_SECRET: REPORT_SECRET,
      },
      { rates: fixedRates() },
    );
  });
  afterAll(() => t.close());

  const user = (email: string, deposit = '0.01') => testUser(t, email, deposit === '0' ? {} : { deposit });
  const add = (
    u: Pick<TestUser, 'headers'>,
    address: string,
    currency = 'BTC',
    extra: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: '/api/wallet/address-book',
      headers: { ...u.headers, ...headers },
      payload: { currency, address, ownWallet: false, ...extra },
    });
  const book = async (u: Pick<TestUser, 'headers'>) =>
    (await t.app.inject({ url: '/api/wallet/address-book', headers: u.headers })).json().entries as {
      id: string;
      address: string;
      onHold: boolean;
      internal: boolean;
    }[];
  const start = (u: Pick<TestUser, 'headers'>, address: string, amount = '0.001', currency = 'BTC') =>
    t.app.inject({
      method: 'POST',
      url: '/api/wallet/sends',
      headers: u.headers,
      payload: { currency, address, amount },
    });
  const confirm = async (u: TestUser, sendId: string, headers: Record<string, string> = u.headers) =>
    t.app.inject({
      method: 'POST',
      url: `/api/wallet/sends/${sendId}/confirm`,
      headers,
      payload: { code: await mailedSendCode(t, u.email, sendId) },
    });
  const security = async (u: Pick<TestUser, 'headers'>) =>
    (await t.app.inject({ url: '/api/wallet/security', headers: u.headers })).json();
  const settings = (u: Pick<TestUser, 'headers'>, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'PATCH', url: '/api/wallet/security', headers: { ...u.headers, ...headers }, payload });
  const mails = async (to: string): Promise<Mail[]> =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: t.admin })).json().messages;
  const linkIn = (text: string, path: 'freeze' | 'cancel-address') =>
    new RegExp(`/api/security/${path}\\?t=([A-Za-z0-9_.-]+)`).exec(text)?.[1];
  const openLink = (path: string, token: string) =>
    t.app.inject({ url: `/api/security/${path}?t=${encodeURIComponent(token)}` });
  /** What a browser does with the page's button: posts the form, then follows the redirect to the outcome (post/redirect/get). */
  const useLink = async (path: string, token: string) => {
    const posted = await t.app.inject({
      method: 'POST',
      url: `/api/security/${path}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `t=${encodeURIComponent(token)}`,
    });
    expect(posted.statusCode).toBe(303);
    return t.app.inject({ url: posted.headers.location as string });
  };
  /** The phrase as stored (the API never answers it). */
  const storedPhrase = async (u: TestUser) =>
    (
      (await t.app.db.execute(
        sql`select p.phrase from anti_phishing_phrases p join accounts a on a.id = p.account_id where a.email = ${u.email}`,
      )) as unknown as { rows: { phrase: string }[] }
    ).rows[0]?.phrase;
  const age = (statement: ReturnType<typeof sql>) => t.app.db.execute(statement);

  describe('the address book', () => {
    it('holds a new address for a day, announced by an email with a cancel link, then lets sends through', async () => {
      const u = await user('hold@muntly.test');
      const added = await add(u, EXTERNAL, 'BTC', { label: 'Cold storage', ownWallet: true });
      expect(added.statusCode).toBe(201);
      const entry = added.json();
      expect(entry).toMatchObject({
        currency: 'BTC',
        address: EXTERNAL,
        label: 'Cold storage',
        ownWallet: true,
        internal: false,
        onHold: true,
      });
      expect(Date.parse(entry.usableFrom) - Date.parse(entry.createdAt)).toBe(DAY_S * 1000);

      const [announced] = await mails(u.email);
      expect(announced!.subject).toBe('New BTC address in your address book');
      expect(announced!.body).toContain(`Address: ${EXTERNAL}`);
      expect(announced!.body).toContain('Wallet: your own wallet');
      expect(linkIn(announced!.body, 'cancel-address')).toBeTruthy();
      expect(linkIn(announced!.body, 'freeze')).toBeTruthy();
      // Clickable in the HTML part.
      expect(announced!.html).toMatch(/<a href="http:\/\/localhost:\d+\/api\/security\/cancel-address\?t=/);

      const held = await start(u, EXTERNAL);
      expect(held.statusCode).toBe(409);
      expect(held.json().error).toMatchObject({ code: 'address_on_hold', field: 'address' });
      expect(held.json().error.retryAfter).toBeGreaterThan(DAY_S - 60);
      expect(held.json().error.retryAfter).toBeLessThanOrEqual(DAY_S);
      expect(held.headers['retry-after']).toBe(String(held.json().error.retryAfter));

      await age(sql`update address_book set usable_from = now() - interval '1 second' where id = ${entry.id}`);
      expect((await book(u))[0]).toMatchObject({ id: entry.id, onHold: false });
      const send = await start(u, EXTERNAL);
      expect(send.statusCode).toBe(201);
      expect((await confirm(u, send.json().id)).json()).toMatchObject({
        status: 'processing',
        message: 'Your transaction is being processed.',
      });
    });

    it('refuses a send to an address not in the book (allow-list mode, on for new accounts)', async () => {
      const u = await user('allow@muntly.test');
      expect((await security(u)).allowListOnly).toBe(true);
      const refused = await start(u, EXTERNAL);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toMatchObject({ code: 'address_not_in_book', field: 'address' });
      // In the page's language too.
      const de = await t.app.inject({
        method: 'POST',
        url: '/api/wallet/sends',
        headers: { ...u.headers, 'accept-language': 'de' },
        payload: { currency: 'BTC', address: EXTERNAL, amount: '0.001' },
      });
      expect(de.json().error.code).toBe('address_not_in_book');
    });

    it('treats every spelling of one address as one entry (case, spaces, XRP tag 0, ETH checksum)', async () => {
      const u = await user('spelling@muntly.test');
      expect((await add(u, BECH32)).statusCode).toBe(201);
      const again = await add(u, `  ${BECH32.toUpperCase()} `);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toMatchObject({ code: 'address_already_in_book', field: 'address' });
      expect((await add(u, XRP_ACCOUNT, 'XRP')).json()).toMatchObject({ address: `${XRP_ACCOUNT}:0` });
      expect((await add(u, `${XRP_ACCOUNT}:0`, 'XRP')).json().error.code).toBe('address_already_in_book');
      // Another tag is another destination: another entry.
      expect((await add(u, `${XRP_ACCOUNT}:77`, 'XRP')).statusCode).toBe(201);
      expect((await add(u, ETH_LOWER, 'ETH')).json().address).toBe(eip55(ETH_LOWER));
      expect((await add(u, eip55(ETH_LOWER), 'ETH')).json().error.code).toBe('address_already_in_book');
      expect(await book(u)).toHaveLength(4);

      // A send typed in another spelling meets the same entry (on hold, then usable).
      expect((await start(u, BECH32.toUpperCase())).json().error.code).toBe('address_on_hold');
      await bookAddresses(t, u, [BECH32]);
      expect((await start(u, BECH32.toUpperCase())).statusCode).toBe(201);
    });

    it('refuses what cannot be an entry: an invalid address, one of the user’s own, a partly supported currency', async () => {
      const u = await user('invalid@muntly.test');
      expect((await add(u, 'bc1qnotanaddress')).json().error).toMatchObject({
        code: 'invalid_address',
        field: 'address',
      });
      expect((await add(u, u.address)).json().error.code).toBe('send_to_own_address');
      expect((await add(u, EXTERNAL, 'USDT')).json().error.code).toBe('currency_partially_supported');
      expect((await add(u, EXTERNAL, 'BTC', { label: 'x'.repeat(101) })).json().error).toMatchObject({
        code: 'validation_failed',
        field: 'label',
      });
    });

    it('holds another Muntly user’s address like any other: a taken-over account is not emptied into the attacker’s Muntly wallet at once (issue 34)', async () => {
      const a = await user('int-a@muntly.test');
      const b = await user('int-b@muntly.test', '0');
      expect((await start(a, b.address)).json().error.code).toBe('address_not_in_book');
      // Never the user's own wallet: it is another user's.
      const entry = (await add(a, ` ${b.address} `, 'BTC', { ownWallet: true })).json();
      expect(entry).toMatchObject({ internal: true, onHold: true, ownWallet: false });
      expect(Date.parse(entry.usableFrom) - Date.parse(entry.createdAt)).toBe(DAY_S * 1000);
      const held = await start(a, b.address);
      expect(held.statusCode).toBe(409);
      expect(held.json().error.code).toBe('address_on_hold');
      expect(held.json().error.retryAfter).toBeGreaterThan(DAY_S - 60);
      // Announced like any new entry, with its cancel link.
      expect(linkIn((await mails(a.email))[0]!.body, 'cancel-address')).toBeTruthy();
      // Past its hold, the send goes through (and arrives at once, as between Muntly wallets).
      await age(sql`update address_book set usable_from = now() - interval '1 second' where id = ${entry.id}`);
      const send = await start(a, b.address);
      expect(send.statusCode).toBe(201);
      expect((await confirm(a, send.json().id)).json().status).toBe('completed');
      expect(await balanceOf(t, b.headers, 'BTC')).toBe('0.00100000');
      // The completed send is a security email with a freeze link.
      const [completed] = await mails(a.email);
      expect(completed!.subject).toBe('Your send of 0.001 BTC is complete');
      expect(linkIn(completed!.body, 'freeze')).toBeTruthy();
    });

    it('keeps each book to its owner: another user’s entry is neither listed, usable nor removable', async () => {
      const a = await user('owner@muntly.test');
      const b = await user('other@muntly.test');
      await bookAddresses(t, a, [EXTERNAL]);
      const [entry] = await book(a);
      expect(await book(b)).toEqual([]);
      expect((await start(b, EXTERNAL)).json().error.code).toBe('address_not_in_book');
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/wallet/address-book/${entry!.id}`,
        headers: b.headers,
      });
      expect(removed.statusCode).toBe(404);
      expect(await book(a)).toHaveLength(1);
      expect((await t.app.inject({ url: '/api/wallet/address-book' })).statusCode).toBe(401);
    });

    it('removes an entry: sends to it stop, even one started before and confirmed after', async () => {
      const u = await user('remove@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const send = (await start(u, EXTERNAL)).json();
      const [entry] = await book(u);
      const removed = await t.app.inject({
        method: 'DELETE',
        url: `/api/wallet/address-book/${entry!.id}`,
        headers: { ...u.headers, 'user-agent': FIREFOX },
      });
      expect(removed.statusCode).toBe(200);
      expect(await book(u)).toEqual([]);
      const refused = await confirm(u, send.id);
      expect(refused.json().error).toMatchObject({ code: 'address_not_in_book' });
      expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.01000000');
      expect(
        (await t.app.inject({ method: 'DELETE', url: `/api/wallet/address-book/${entry!.id}`, headers: u.headers }))
          .statusCode,
      ).toBe(404);
      // Added again, the hold starts again.
      expect((await add(u, EXTERNAL)).json().onHold).toBe(true);
      const { events } = await security(u);
      expect(events.find((e: { kind: string }) => e.kind === 'address_removed')).toMatchObject({
        client: 'Firefox on Linux',
        detail: { currency: 'BTC', address: EXTERNAL },
      });
    });
  });

  describe('the cancel link of a new entry', () => {
    it('asks first (GET changes nothing), cancels on POST, works once, and refuses a forged or expired link', async () => {
      const u = await user('cancel@muntly.test');
      await add(u, EXTERNAL, 'BTC', {}, { 'accept-language': 'fr' });
      const [announced] = await mails(u.email);
      expect(announced!.subject).toBe('Nouvelle adresse BTC dans votre carnet');
      const token = linkIn(announced!.body, 'cancel-address')!;

      const page = await openLink('cancel-address', token);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('Annuler cette adresse ?');
      expect(page.body).toContain(EXTERNAL);
      expect(page.body).toContain('method="post"');
      expect(await book(u)).toHaveLength(1); // a mail scanner fetching the link cancels nothing

      const forged = `${token.slice(0, -8)}${token.slice(-8, -7) === 'x' ? 'y' : 'x'}${token.slice(-7)}`;
      expect((await useLink('cancel-address', forged)).statusCode).toBe(400);
      expect((await useLink('freeze', token)).statusCode).toBe(400); // a cancel link is no freeze link
      expect((await security(u)).frozen).toBe(false);

      const done = await useLink('cancel-address', token);
      expect(done.statusCode).toBe(200);
      expect(done.body).toContain('Adresse annulée');
      expect(await book(u)).toEqual([]);
      const again = await useLink('cancel-address', token);
      expect(again.statusCode).toBe(409);
      expect(again.body).toContain('Ce lien a déjà été utilisé.');
      const { events } = await security(u);
      expect(events[0]).toMatchObject({ kind: 'address_cancelled_by_link', client: 'email link' });

      // The page offers to freeze the sends as well, with a link of its own.
      const freezeToken = /name="t" value="([^"]+)"/.exec(done.body)![1]!;
      expect((await useLink('freeze', freezeToken)).statusCode).toBe(200);
      expect((await security(u)).frozen).toBe(true);

      await add(u, BECH32);
      const expiring = linkIn((await mails(u.email))[0]!.body, 'cancel-address')!;
      await age(
        sql`update security_links set expires_at = now() - interval '1 second' where used_at is null and account_id = (select id from accounts where email = ${u.email})`,
      );
      const expired = await useLink('cancel-address', expiring);
      expect(expired.statusCode).toBe(400);
      expect(expired.body).toContain('This link has expired.');
      expect(await book(u)).toHaveLength(1);
    });
  });

  describe('the freeze', () => {
    it('freezes every send at once by the link of any security email: POST only, signed, single use, expiring', async () => {
      const u = await user('freeze@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const pending = (await start(u, EXTERNAL)).json();
      const [sendMail] = await mails(u.email);
      expect(sendMail!.subject).toBe('Confirm your send of 0.001 BTC');
      const token = linkIn(sendMail!.body, 'freeze')!;
      expect(sendMail!.body).toContain(
        'Was this not you? Stop every send from your account at once, without logging in:',
      );

      // GET shows a question and a button: a prefetching mail scanner freezes nothing.
      const page = await openLink('freeze', token);
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Freeze the sends of your account?');
      expect(page.body).toContain('<form method="post" action="/api/security/freeze">');
      expect((await security(u)).frozen).toBe(false);

      // Only Muntly can sign a link: any change to it, or a made-up one, is refused.
      const [id, signature] = token.split('.') as [string, string];
      const flip = (text: string, at: number) =>
        `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
      expect((await useLink('freeze', `${id}.${flip(signature, 10)}`)).statusCode).toBe(400);
      expect((await useLink('freeze', `${flip(id, 5)}.${signature}`)).statusCode).toBe(400);
      // The spare bits of the last character (base64url): still not the signature Muntly wrote.
      expect(
        (await useLink('freeze', `${id}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`)).statusCode,
      ).toBe(400);
      expect(
        (await useLink('freeze', 'AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).body,
      ).toContain('This link is not valid.');
      expect((await useLink('freeze', '')).statusCode).toBe(400);
      expect((await security(u)).frozen).toBe(false);

      const frozen = await useLink('freeze', token);
      expect(frozen.statusCode).toBe(200);
      expect(frozen.body).toContain('Sends are frozen');
      expect(await security(u)).toMatchObject({ frozen: true, unfreezesAt: null });
      expect((await useLink('freeze', token)).statusCode).toBe(409);
      // Asked as JSON, the API answers as everywhere: an error code.
      const asJson = await t.app.inject({ method: 'POST', url: '/api/security/freeze', payload: { t: token } });
      expect(asJson.statusCode).toBe(409);
      expect(asJson.json().error).toMatchObject({ code: 'link_used', field: 't' });

      // Refused when a send starts, and when one started before is confirmed.
      expect((await start(u, EXTERNAL)).json().error.code).toBe('account_frozen');
      const refused = await confirm(u, pending.id);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('account_frozen');
      expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.01000000');
      // The user is told, without a freeze link (it is done), and how to undo it.
      const [told] = await mails(u.email);
      expect(told!.subject).toBe('Security of your Muntly account: Sends frozen');
      expect(linkIn(told!.body, 'freeze')).toBeUndefined();
      expect((await security(u)).events[0]).toMatchObject({ kind: 'frozen_by_link', client: 'email link' });

      // An old link has expired.
      const other = await user('freeze-late@muntly.test');
      await add(other, EXTERNAL);
      const late = linkIn((await mails(other.email))[0]!.body, 'freeze')!;
      await age(
        sql`update security_links set expires_at = now() - interval '1 second' where used_at is null and account_id = (select id from accounts where email = ${other.email})`,
      );
      expect((await useLink('freeze', late)).body).toContain('This link has expired.');
      expect((await security(other)).frozen).toBe(false);
    });

    it('orders a freeze and a confirmation that race: booked before the freeze, or refused after it', async () => {
      const rounds = kind === 'postgresql' ? 8 : 3;
      const outcomes = new Set<number>();
      for (let i = 0; i < rounds; i++) {
        const u = await user(`race-${i}@muntly.test`);
        await bookAddresses(t, u, [EXTERNAL]);
        const send = (await start(u, EXTERNAL)).json();
        const token = linkIn((await mails(u.email))[0]!.body, 'freeze')!;
        const code = await mailedSendCode(t, u.email, send.id);
        const [confirmed, frozen] = await Promise.all([
          t.app.inject({
            method: 'POST',
            url: `/api/wallet/sends/${send.id}/confirm`,
            headers: u.headers,
            payload: { code },
          }),
          useLink('freeze', token),
        ]);
        expect(frozen.statusCode).toBe(200);
        outcomes.add(confirmed.statusCode);
        const row = (await t.app.db.execute(
          sql`select s.status, s.confirmed_at, p.frozen_at from wallet_sends s join account_protection p on p.account_id = s.owner_id where s.id = ${send.id}`,
        )) as unknown as {
          rows: { status: string; confirmed_at: string | null; frozen_at: string }[];
        };
        const [state] = row.rows;
        if (confirmed.statusCode === 200) {
          expect(state!.status).toBe('processing');
          expect(new Date(state!.confirmed_at!).getTime()).toBeLessThanOrEqual(new Date(state!.frozen_at).getTime());
        } else {
          expect(confirmed.json().error.code).toBe('account_frozen');
          expect(state!.status).toBe('awaiting_code');
          expect(await balanceOf(t, u.headers, 'BTC')).toBe('0.01000000');
        }
      }
      expect([...outcomes].every((status) => status === 200 || status === 403)).toBe(true);
    });

    it('unfreezes with a login, an emailed code and a cool-down; a freeze link meanwhile cancels the unfreeze', async () => {
      const u = await user('unfreeze@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/wallet/security/unfreeze', headers: u.headers })).json().error
          .code,
      ).toBe('not_frozen');
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/wallet/security/freeze', headers: u.headers })).json(),
      ).toMatchObject({ frozen: true });
      expect((await t.app.inject({ method: 'POST', url: '/api/wallet/security/unfreeze' })).statusCode).toBe(401);

      const asked = await t.app.inject({ method: 'POST', url: '/api/wallet/security/unfreeze', headers: u.headers });
      expect(asked.json()).toMatchObject({ frozen: true, unfreezeCodeSent: true });
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/wallet/security/unfreeze', headers: u.headers })).json().error
          .code,
      ).toBe('code_requested_too_soon');
      const [codeMail] = await mails(u.email);
      expect(codeMail!.subject).toBe('Your code to unfreeze sends');
      const code = /[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}/.exec(codeMail!.body)![0];
      const unfreeze = (value: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/wallet/security/unfreeze/confirm',
          headers: u.headers,
          payload: { code: value },
        });
      expect((await unfreeze('AAAA-AAAA-AAAA-AAAA')).json().error).toMatchObject({
        code: 'invalid_code',
        message: 'Wrong code. 4 attempts left.',
      });
      const confirmed = await unfreeze(code.toLowerCase());
      expect(confirmed.statusCode).toBe(200);
      const state = confirmed.json();
      // Still frozen during the cool-down.
      expect(state.frozen).toBe(true);
      expect(Date.parse(state.unfreezesAt) - Date.now()).toBeGreaterThan(DAY_S * 1000 - 60_000);
      expect((await start(u, EXTERNAL)).json().error.code).toBe('account_frozen');
      expect((await unfreeze(code)).json().error.code).toBe('not_frozen');
      const [confirmedMail] = await mails(u.email);
      expect(confirmedMail!.subject).toMatch(/^Security of your Muntly account: Sends will be unfrozen on /);
      const token = linkIn(confirmedMail!.body, 'freeze')!;

      // The cool-down passes: sends go again.
      await age(
        sql`update account_protection set unfreezes_at = now() - interval '1 second' where account_id = (select id from accounts where email = ${u.email})`,
      );
      expect((await security(u)).frozen).toBe(false);
      expect((await start(u, EXTERNAL)).statusCode).toBe(201);

      // Someone else unfroze? The link in that email freezes again.
      expect((await useLink('freeze', token)).statusCode).toBe(200);
      expect(await security(u)).toMatchObject({ frozen: true, unfreezesAt: null });
      const kinds = (await security(u)).events.map((e: { kind: string }) => e.kind);
      expect(kinds.slice(0, 5)).toEqual([
        'frozen_by_link',
        'unfreeze_confirmed',
        'unfreeze_requested',
        'frozen',
        'address_added',
      ]);
    });

    const keyOf = async (u: TestUser) =>
      (await t.app.inject({ url: `/api/ops/users?email=${encodeURIComponent(u.email)}`, headers: t.admin })).json()
        .users[0].accountKey as string;
    const operatorAction = (key: string, action: 'freeze' | 'unfreeze', payload: object, headers = t.admin) =>
      t.app.inject({ method: 'POST', url: `/api/ops/accounts/${key}/${action}`, headers, payload });
    const auditOf = async (action: string, target: string) =>
      (await t.app.inject({ url: `/api/ops/audit?action=${action}&target=${target}`, headers: t.admin })).json()
        .entries as { actor: string; before: object; after: object }[];
    const cli = async (commands: Parameters<typeof opsCliOutput>[2]) => {
      if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
      return opsCliOutput(`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, t.admin, commands);
    };

    it('lets the operator unfreeze at once, with a reason the audit trail keeps (API and npm run ops -- unfreeze)', async () => {
      const u = await user('support-unfreeze@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      await t.app.inject({ method: 'POST', url: '/api/wallet/security/freeze', headers: u.headers });
      const key = await keyOf(u);
      expect((await operatorAction(key, 'unfreeze', { reason: ' ' })).json().error).toMatchObject({
        code: 'validation_failed',
        field: 'reason',
      });
      expect((await operatorAction(key, 'unfreeze', { reason: 'x'.repeat(501) })).json().error).toMatchObject({
        code: 'validation_failed',
        field: 'reason',
      });
      expect((await operatorAction(key, 'unfreeze', {})).json().error).toMatchObject({
        code: 'validation_failed',
        field: 'reason',
      });
      expect((await operatorAction(key, 'unfreeze', { reason: 'myself' }, u.headers)).statusCode).toBe(403);
      expect((await operatorAction('ZZZZZZZZ', 'unfreeze', { reason: 'nobody' })).json().error.code).toBe('not_found');
      expect((await security(u)).frozen).toBe(true);

      const printed = await cli(async (ops) => {
        await expect(ops(['unfreeze', u.email])).rejects.toThrow('Usage: unfreeze <email|accountKey> --reason');
        await expect(ops(['unfreeze', 'nobody@muntly.test', '--reason', 'who?'])).rejects.toThrow(
          'No account with the email address nobody@muntly.test.',
        );
        await ops(['unfreeze', u.email, '--reason', 'identity', 'checked', 'by', 'video', 'call']);
        await expect(ops(['unfreeze', key, '--reason', 'again'])).rejects.toThrow('409 not_frozen');
      });
      expect(printed).toEqual([`${u.email} (${key}): sends unfrozen.`]);
      expect((await security(u)).frozen).toBe(false);
      expect((await security(u)).events[0]).toMatchObject({ kind: 'unfrozen_by_operator', client: 'operator' });
      expect((await start(u, EXTERNAL)).statusCode).toBe(201);
      expect((await mails(u.email))[1]!.subject).toBe(
        'Security of your Muntly account: Sends unfrozen by Muntly support',
      );
      // Audited once (the refusals changed nothing): who, which account, the state before and after, why.
      const [entry, ...more] = await auditOf('account.unfreeze', key);
      expect(more).toEqual([]);
      expect(entry).toMatchObject({
        actor: 'operator',
        before: { frozen: true, frozenBy: 'user', unfreezesAt: null },
        after: {
          frozen: false,
          frozenBy: null,
          frozenAt: null,
          unfreezesAt: null,
          reason: 'identity checked by video call',
        },
      });
      expect((await t.app.inject({ url: '/api/ops/audit/verify', headers: t.admin })).json().ok).toBe(true);
    });

    it('lets an operator freeze an account with a reason: only an operator unfreezes it, the user is told without the reason, both audited', async () => {
      const u = await user('operator-freeze@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const key = await keyOf(u);
      expect((await operatorAction(key, 'freeze', { reason: '' })).json().error).toMatchObject({
        code: 'validation_failed',
        field: 'reason',
      });
      expect((await operatorAction(key, 'freeze', { reason: 'me' }, u.headers)).statusCode).toBe(403);
      expect((await security(u)).frozen).toBe(false);

      const frozen = await operatorAction(key.toLowerCase(), 'freeze', {
        reason: 'Suspected account takeover, ticket 4711',
      });
      expect(frozen.statusCode).toBe(200);
      expect(frozen.json()).toMatchObject({
        accountKey: key,
        frozen: true,
        frozenByOperator: true,
        frozenAt: expect.any(String),
      });
      expect((await operatorAction(key, 'freeze', { reason: 'twice' })).json().error.code).toBe('already_frozen');
      expect((await start(u, EXTERNAL)).json().error.code).toBe('account_frozen');
      expect(await security(u)).toMatchObject({ frozen: true, frozenByOperator: true, unfreezesAt: null });
      expect((await security(u)).events[0]).toMatchObject({ kind: 'frozen_by_operator', client: 'operator' });
      expect(JSON.stringify(await security(u))).not.toContain('4711');

      // The user is told, without the reason and without a freeze link (frozen already).
      const [told] = await mails(u.email);
      expect(told!.subject).toBe('Security of your Muntly account: Sends frozen by Muntly support');
      expect(told!.body).toContain('Only Muntly support can unfreeze them.');
      expect(told!.body).not.toContain('4711');
      expect(linkIn(told!.body, 'freeze')).toBeUndefined();

      // The user cannot lift it; freezing again changes nothing.
      const asked = await t.app.inject({ method: 'POST', url: '/api/wallet/security/unfreeze', headers: u.headers });
      expect(asked.statusCode).toBe(403);
      expect(asked.json().error.code).toBe('frozen_by_operator');
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/wallet/security/freeze', headers: u.headers })).statusCode,
      ).toBe(200);
      expect(await security(u)).toMatchObject({ frozen: true, frozenByOperator: true });

      const printed = await cli(async (ops) => {
        await expect(ops(['freeze', key])).rejects.toThrow('Usage: freeze <email|accountKey> --reason');
        await expect(ops(['freeze', u.email, '--reason', 'again'])).rejects.toThrow('409 already_frozen');
        await ops(['unfreeze', key, '--reason', 'Owner verified by video call']);
        await ops(['freeze', u.email, '--reason', 'Second report from the owner']);
      });
      expect(printed).toEqual([
        `${key}: sends unfrozen.`,
        expect.stringMatching(new RegExp(`^${u.email} \\(${key}\\): sends frozen by an operator since \\d{4}-`)),
      ]);
      const freezes = await auditOf('account.freeze', key);
      expect(freezes.map((entry) => entry.after)).toEqual([
        expect.objectContaining({ frozen: true, frozenBy: 'operator', reason: 'Second report from the owner' }),
        expect.objectContaining({
          frozen: true,
          frozenBy: 'operator',
          unfreezesAt: null,
          reason: 'Suspected account takeover, ticket 4711',
        }),
      ]);
      expect(freezes[1]).toMatchObject({
        actor: 'operator',
        before: { frozen: false, frozenBy: null, frozenAt: null },
      });
      expect(await auditOf('account.unfreeze', key)).toEqual([
        expect.objectContaining({
          before: expect.objectContaining({ frozenBy: 'operator' }),
          after: expect.objectContaining({ frozen: false }),
        }),
      ]);
    });

    it('hands a freeze of the user’s own, with its unfreeze under way, to the operator', async () => {
      const u = await user('handover@muntly.test', '0');
      await t.app.inject({ method: 'POST', url: '/api/wallet/security/freeze', headers: u.headers });
      await t.app.inject({ method: 'POST', url: '/api/wallet/security/unfreeze', headers: u.headers });
      const [codeMail] = await mails(u.email);
      const code = /[A-Z0-9]{4}(?:-[A-Z0-9]{4}){3}/.exec(codeMail!.body)![0];
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/wallet/security/unfreeze/confirm',
            headers: u.headers,
            payload: { code },
          })
        ).statusCode,
      ).toBe(200);
      expect((await security(u)).unfreezesAt).not.toBeNull();
      const key = await keyOf(u);
      expect((await operatorAction(key, 'freeze', { reason: 'The owner called: not them' })).statusCode).toBe(200);
      expect(await security(u)).toMatchObject({ frozen: true, frozenByOperator: true, unfreezesAt: null });
      const [entry] = await auditOf('account.freeze', key);
      expect(entry!.before).toMatchObject({ frozen: true, frozenBy: 'user', unfreezesAt: expect.any(String) });
      expect(entry!.after).toMatchObject({ frozen: true, frozenBy: 'operator', unfreezesAt: null });
    });
  });

  describe('cool-downs and allow-list mode', () => {
    it('switches allow-list mode off only after the hold, and then pauses sends for a day', async () => {
      const u = await user('mode@muntly.test');
      expect((await security(u)).allowListOnly).toBe(true);
      const early = await settings(u, { allowListOnly: false });
      expect(early.statusCode).toBe(409);
      expect(early.json().error).toMatchObject({ code: 'allow_list_on_hold', field: 'allowListOnly' });
      expect(early.json().error.retryAfter).toBeGreaterThan(DAY_S - 60);
      await age(
        sql`update account_protection set allow_list_since = now() - interval '25 hours' where account_id = (select id from accounts where email = ${u.email})`,
      );
      const off = await settings(u, { allowListOnly: false });
      expect(off.json()).toMatchObject({ allowListOnly: false, allowListOffFrom: null });
      expect(Date.parse(off.json().sendsPausedUntil) - Date.now()).toBeGreaterThan(DAY_S * 1000 - 60_000);
      const paused = await start(u, EXTERNAL);
      expect(paused.statusCode).toBe(409);
      expect(paused.json().error.code).toBe('sends_paused');
      expect(paused.json().error.retryAfter).toBeGreaterThan(DAY_S - 60);
      expect((await mails(u.email))[0]!.body).toContain('Allow-list mode switched off');

      await age(
        sql`update account_protection set sends_paused_until = now() - interval '1 second' where account_id = (select id from accounts where email = ${u.email})`,
      );
      // Off: any address, no book needed.
      expect((await start(u, EXTERNAL)).statusCode).toBe(201);
      // On again at once, no pause; then off again only after a new hold.
      expect((await settings(u, { allowListOnly: true })).json()).toMatchObject({
        allowListOnly: true,
        sendsPausedUntil: null,
      });
      expect((await start(u, EXTERNAL)).json().error.code).toBe('address_not_in_book');
      expect((await settings(u, { allowListOnly: false })).json().error.code).toBe('allow_list_on_hold');
    });

    it('pauses sends after the email address changes, and tells the former address with a freeze link', async () => {
      const u = await user('before@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const moved = bearer(
        await signToken(t.keys, { sub: 'auth0|before@muntly.test', email: 'after@muntly.test', name: 'before' }),
      );
      const refused = await start({ headers: moved }, EXTERNAL);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('sends_paused');
      const [told] = await mails('before@muntly.test');
      expect(told!.subject).toBe('Security of your Muntly account: Email address changed to after@muntly.test');
      const token = linkIn(told!.body, 'freeze')!;
      expect((await useLink('freeze', token)).statusCode).toBe(200);
      expect((await security({ headers: moved })).events.map((e: { kind: string }) => e.kind).slice(0, 2)).toEqual([
        'frozen_by_link',
        'email_changed',
      ]);
    });
  });

  describe('the anti-phishing phrase', () => {
    it('tops every email to the user, in text and HTML and in their language, and is never answered in full', async () => {
      const u = await user('phrase@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const set = await settings(u, { phrase: '  Blaue   Pferde 42 ' }, { 'accept-language': 'de' });
      expect(set.statusCode).toBe(200);
      expect(set.json().phrase).toMatchObject({ masked: 'B•••2' });
      expect(set.body).not.toContain('Blaue');
      expect(JSON.stringify(await security(u))).not.toContain('Pferde');
      // The first phrase pauses nothing.
      expect(set.json().sendsPausedUntil).toBeNull();

      const [confirmation] = await mails(u.email);
      expect(confirmation!.subject).toBe('Sicherheit Ihres Muntly-Kontos: Anti-Phishing-Satz festgelegt');
      expect(confirmation!.body.startsWith('Ihr Anti-Phishing-Satz: Blaue Pferde 42\n')).toBe(true);
      // On its own line, large and bold, in the email's language.
      expect(confirmation!.html).toMatch(
        /<p style="[^"]*font-size:18px;[^"]*font-weight:bold;[^"]*">Blaue Pferde 42<\/p>/,
      );
      expect(confirmation!.html).toContain('>Ihr Anti-Phishing-Satz:</p>');
      // At the very top: before the brand's header.
      expect(confirmation!.html.indexOf('Blaue Pferde 42')).toBeLessThan(confirmation!.html.indexOf('>Muntly</td>'));

      // Every email: a send's code (English page), and one not about the account (the support form).
      const send = await start(u, EXTERNAL);
      expect(send.statusCode).toBe(201);
      const [codeMail] = await mails(u.email);
      expect(
        codeMail!.body.startsWith(
          'Your anti-phishing phrase: Blaue Pferde 42\nAn email that does not show it is not from Muntly.\n\nYour code',
        ),
      ).toBe(true);
      expect(codeMail!.html).toContain('Blaue Pferde 42');
      expect(await mailedSendCode(t, u.email, send.json().id)).toMatch(/^[A-Z]{4}-/);
      const support = await t.app.inject({
        method: 'POST',
        url: '/api/support',
        headers: { 'accept-language': 'ru' },
        payload: {
          name: 'Phrase',
          email: 'PHRASE@muntly.test',
          topic: 'security',
          message: 'Does every email carry my phrase? Just checking.',
        },
      });
      expect(support.statusCode).toBe(201);
      const [receipt] = await mails(u.email);
      expect(receipt!.body).toContain('Blaue Pferde 42');
      // An order's confirmation too, placed logged in (orders mail through notify, like everyone).
      const order = await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: u.headers,
        payload: {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '50',
          email: u.email,
          address: EXTERNAL,
        },
      });
      expect(order.statusCode).toBe(201);
      const [placed] = await mails(u.email);
      expect(placed!.subject).toContain(order.json().reference);
      expect(placed!.body.startsWith('Your anti-phishing phrase: Blaue Pferde 42\n')).toBe(true);
      expect(placed!.html).toContain('Blaue Pferde 42');
      // And one placed without logging in, with the address spelt otherwise: an anonymous order's
      // email is written by the outbox writer, which puts the phrase atop it as every email has it.
      const anonymous = await t.app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { 'accept-language': 'de' },
        payload: {
          type: 'buy',
          currencyFrom: 'EUR',
          currencyTo: 'BTC',
          amount: '50',
          email: ' Phrase@MUNTLY.test ',
          address: EXTERNAL,
        },
      });
      expect(anonymous.statusCode).toBe(201);
      const [unsigned] = await mails(u.email);
      expect(unsigned!.subject).toContain(anonymous.json().reference);
      expect(unsigned!.body.startsWith('Ihr Anti-Phishing-Satz: Blaue Pferde 42\n')).toBe(true);
      expect(unsigned!.html).toContain('Blaue Pferde 42');
      // Someone else's emails never show it.
      const stranger = await user('stranger@muntly.test', '0');
      await add(stranger, EXTERNAL);
      expect((await mails(stranger.email))[0]!.body).not.toContain('Blaue');

      // Changing it pauses sends, and the email already shows the new one.
      const changed = await settings(u, { phrase: 'Rote Kühe' });
      expect(changed.json().phrase.masked).toBe('R•••e');
      expect(changed.json().sendsPausedUntil).not.toBeNull();
      expect((await start(u, EXTERNAL)).json().error.code).toBe('sends_paused');
      expect((await mails(u.email))[0]!.body.startsWith('Your anti-phishing phrase: Rote Kühe')).toBe(true);
      // Removed: emails stop showing one.
      expect((await settings(u, { phrase: null })).json().phrase).toBeNull();
      expect((await mails(u.email))[0]!.body).not.toContain('anti-phishing phrase:');
    });

    it('is normalised (NFC, spaces) and refuses control and invisible characters and bad lengths', async () => {
      const u = await user('nfc@muntly.test', '0');
      expect((await settings(u, { phrase: 'Cafe\u0301 noir' })).statusCode).toBe(200);
      expect(await storedPhrase(u)).toBe('Caf\u00e9 noir');
      for (const [phrase, code] of [
        ['abc\u0007def', 'invalid_characters'],
        ['\u202Eevil', 'invalid_characters'],
        ['zero\u200Bwidth', 'invalid_characters'],
        ['two\nlines', 'invalid_characters'],
        ['ab', 'too_short'],
        ['x'.repeat(41), 'too_long'],
      ] as const) {
        const res = await settings(u, { phrase });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code, field: 'phrase' });
      }
      expect((await settings(u, {})).json().error.code).toBe('validation_failed');
      expect(await storedPhrase(u)).toBe('Caf\u00e9 noir');
    });
  });

  describe('sign-ins from a new device', () => {
    /** What the identity provider reports of a login (an Auth0 Action through this endpoint; the local provider in-process, the same service). */
    const report = (payload: Record<string, unknown>, secret: string | null = REPORT_SECRET) =>
      t.app.inject({
        method: 'POST',
        url: '/api/security/sign-ins',
        headers: secret === null ? {} : { authorization: `Bearer ${secret}` },
        payload,
      });
    const signIn = async (u: TestUser, deviceKey: string, userAgent = FIREFOX, language?: string) => {
      const res = await report({
        subject: `auth0|${u.email}`,
        deviceKey,
        userAgent,
        ...(language ? { language } : {}),
      });
      expect(res.statusCode).toBe(200);
      return res.json().device as string;
    };
    const signInMails = async (u: TestUser) =>
      (await mails(u.email)).filter((mail) => /New sign-in|Neue Anmeldung|Новый вход/.test(mail.subject));
    const laptop = 'laptop-device-key-0123456789abcdef';
    const phone = 'phone-device-key-0123456789abcdef';
    const tablet = 'tablet-device-key-0123456789abcdef';

    it('puts no words of whoever logs in under the owner’s phrase: a made-up User-Agent, an entry’s label (issue 34)', async () => {
      const u = await user('crafted@muntly.test', '0');
      await settings(u, { phrase: 'Stille Wasser' });
      expect(await signIn(u, laptop)).toBe('first_device');
      expect(await signIn(u, phone, 'Muntly-Security:refund-at-https://muntly-refund.example')).toBe('new_device');
      const [told] = await signInMails(u);
      expect(told!.body.startsWith('Your anti-phishing phrase: Stille Wasser')).toBe(true);
      expect(told!.body).toContain('Device: a program that is not a known browser');
      // The label of a new entry, typed by whoever is logged in (after a takeover: the attacker).
      expect(
        (await add(u, EXTERNAL, 'BTC', { label: 'Refund from Muntly support: confirm at muntly-refund.example' }))
          .statusCode,
      ).toBe(201);
      const [announced] = await mails(u.email);
      expect(announced!.subject).toBe('New BTC address in your address book');
      for (const mail of [told!, announced!])
        for (const part of [mail.subject, mail.body, mail.html]) expect(part).not.toMatch(/refund/i);
      // The security page still shows both as they are (to the logged-in owner, not in an email).
      expect((await book(u))[0]).toMatchObject({ address: EXTERNAL });
    });

    it('records the first device silently, tells of a new one once with a working freeze link, and never of a known one', async () => {
      const u = await user('devices@muntly.test', '0');
      expect(await signIn(u, laptop)).toBe('first_device');
      expect(await signInMails(u)).toEqual([]);
      expect((await security(u)).events).toEqual([]);
      // The same browser again: nothing.
      expect(await signIn(u, laptop)).toBe('known_device');

      expect(await signIn(u, phone, CHROME_MAC)).toBe('new_device');
      const [mail, ...others] = await signInMails(u);
      expect(others).toEqual([]);
      expect(mail!.subject).toBe('New sign-in to your Muntly account');
      expect(mail!.body).toMatch(/When: \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
      expect(mail!.body).toContain('Device: Chrome on macOS');
      expect(mail!.body).toContain('Was this not you? Stop every send from your account at once, without logging in:');
      // Neither the device key nor anything of the network is in it.
      expect(`${mail!.subject}${mail!.body}${mail!.html}`).not.toContain(phone);
      expect(mail!.body).not.toMatch(/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/);
      const { events } = await security(u);
      expect(events).toEqual([
        { kind: 'signed_in_new_device', at: expect.any(String), client: 'Chrome on macOS', detail: null },
      ]);

      // Logging in again and again from the new device sends nothing more; nor from the first one.
      for (let i = 0; i < 3; i++) expect(await signIn(u, phone, CHROME_MAC)).toBe('known_device');
      expect(await signIn(u, laptop)).toBe('known_device');
      expect(await signInMails(u)).toHaveLength(1);
      expect((await security(u)).events).toHaveLength(1);
      // Only the hash of a device key is kept.
      const stored = (await t.app.db.execute(
        sql`select device_hash, client from sign_in_devices where subject = ${`auth0|${u.email}`} order by first_seen_at`,
      )) as unknown as {
        rows: { device_hash: string; client: string }[];
      };
      expect(stored.rows.map((row) => row.client)).toEqual(['Firefox on Linux', 'Chrome on macOS']);
      expect(JSON.stringify(stored.rows)).not.toMatch(/device-key/);

      // Another new device: another email. Its freeze link stops every send at once.
      expect(await signIn(u, tablet)).toBe('new_device');
      const latest = await signInMails(u);
      expect(latest).toHaveLength(2);
      expect(latest[0]!.body).toContain('Device: Firefox on Linux');
      // In the HTML part the freeze link is a button with words, not a bare address.
      expect(latest[0]!.html).toMatch(
        /<a href="http:\/\/localhost:\d+\/api\/security\/freeze\?t=[^"]+" style="display:inline-block;[^"]*">Stop every send now<\/a>/,
      );
      const frozen = await useLink('freeze', linkIn(latest[0]!.body, 'freeze')!);
      expect(frozen.statusCode).toBe(200);
      expect(frozen.body).toContain('Sends are frozen');
      expect(await security(u)).toMatchObject({ frozen: true });
      expect((await security(u)).events.map((event: { kind: string }) => event.kind)).toEqual([
        'frozen_by_link',
        'signed_in_new_device',
        'signed_in_new_device',
      ]);
    });

    it('sends one email when a new device logs in twice at once', async () => {
      const u = await user('twice@muntly.test', '0');
      await signIn(u, laptop);
      const outcomes = await Promise.all([signIn(u, phone), signIn(u, phone), signIn(u, phone)]);
      expect(outcomes.sort()).toEqual(['known_device', 'known_device', 'new_device']);
      expect(await signInMails(u)).toHaveLength(1);
    });

    it('writes in the user’s language with their anti-phishing phrase; a login before the account exists is remembered', async () => {
      // The provider reports the sign-up's login before the site's first request makes the account.
      const email = 'sprache@muntly.test';
      expect(
        (await report({ subject: `auth0|${email}`, deviceKey: laptop, userAgent: FIREFOX, language: 'de' })).json()
          .device,
      ).toBe('first_device');
      const u = await user(email, '0');
      // No security email yet: the login page's language.
      expect(await signIn(u, phone, CHROME_MAC, 'de')).toBe('new_device');
      const [german] = await signInMails(u);
      expect(german!.subject).toBe('Neue Anmeldung bei Ihrem Muntly-Konto');
      expect(german!.body).toContain('Gerät: Chrome unter macOS');
      expect(german!.body).toMatch(/Wann: \d{1,2}\. \w+ \d{4} um \d{2}:\d{2} UTC/);
      // Once the user has had security emails, theirs wins over whatever language whoever logs in chose.
      await settings(u, { phrase: 'Синий кит' }, { 'accept-language': 'ru' });
      expect(await signIn(u, tablet, FIREFOX, 'en')).toBe('new_device');
      const [russian] = await signInMails(u);
      expect(russian!.subject).toBe('Новый вход в ваш аккаунт Muntly');
      expect(russian!.body.startsWith('Ваша антифишинговая фраза: Синий кит\n')).toBe(true);
      expect(russian!.body).toContain('Устройство: Firefox, Linux');
      expect(russian!.body).toMatch(/\/api\/security\/freeze\?t=/);
    });

    it('takes reports only with the shared secret, and checks them', async () => {
      const u = await user('reports@muntly.test', '0');
      const payload = { subject: `auth0|${u.email}`, deviceKey: laptop, userAgent: FIREFOX };
      for (const secret of [null, 'wrong-secret', `${REPORT_SECRET}x`, '']) {
        const refused = await report(payload, secret);
        expect(refused.statusCode).toBe(401);
        expect(refused.json().error.code).toBe('sign_in_report_secret_invalid');
      }
      expect(
        (
          await t.app.inject({
            method: 'POST',
            url: '/api/security/sign-ins',
            headers: { authorization: `Basic ${REPORT_SECRET}` },
            payload,
          })
        ).statusCode,
      ).toBe(401);
      // A user's own login token is no secret.
      expect(
        (await t.app.inject({ method: 'POST', url: '/api/security/sign-ins', headers: u.headers, payload })).statusCode,
      ).toBe(401);
      expect((await report({ ...payload, deviceKey: 'short' })).json().error.code).toBe('validation_failed');
      expect((await report({ deviceKey: laptop })).statusCode).toBe(400);
      // None of the refused reports counted: this is still the first device.
      expect((await report(payload)).json()).toEqual({ device: 'first_device' });
    });

    it('is off (404) without SIGN_IN_REPORT_SECRET', async () => {
      const off = await testApp(kind);
      try {
        const res = await off.app.inject({
          method: 'POST',
          url: '/api/security/sign-ins',
          headers: { authorization: `Bearer ${REPORT_SECRET}` },
          payload: { subject: 'auth0|x', deviceKey: laptop },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('not_found');
      } finally {
        await off.close();
      }
    });
  });

  describe('step-up for sends', () => {
    it('asks for a recent login to confirm a send, without spending the code', async () => {
      const u = await user('stepup@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const send = (await start(u, EXTERNAL)).json();
      const old = bearer(
        await signToken(t.keys, {
          sub: 'auth0|stepup@muntly.test',
          email: u.email,
          authTime: Math.floor(Date.now() / 1000) - 16 * 60,
        }),
      );
      const refused = await confirm(u, send.id, old);
      expect(refused.statusCode).toBe(401);
      expect(refused.json().error.code).toBe('login_required_recent');
      expect(refused.headers['www-authenticate']).toBe('Bearer error="insufficient_user_authentication", max_age=900');
      const none = bearer(await signToken(t.keys, { sub: 'auth0|stepup@muntly.test', email: u.email, authTime: null }));
      expect((await confirm(u, send.id, none)).json().error.code).toBe('login_required_recent');
      // Logged in again: the same code confirms the same send.
      const fresh = bearer(
        await signToken(t.keys, {
          sub: 'auth0|stepup@muntly.test',
          email: u.email,
          authTime: Math.floor(Date.now() / 1000) - 60,
        }),
      );
      expect((await confirm(u, send.id, fresh)).json().status).toBe('processing');
    });

    it('asks for a second factor (amr) above the limit', async () => {
      const u = await user('amr@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const passwordOnly = bearer(
        await signToken(t.keys, { sub: 'auth0|amr@muntly.test', email: u.email, amr: ['pwd'] }),
      );
      // Below the limit a password is enough.
      const small = (await start(u, EXTERNAL, '0.001')).json(); // 80 EUR
      expect((await confirm(u, small.id, passwordOnly)).json().status).toBe('processing');
      const big = (await start(u, EXTERNAL, '0.002')).json(); // 160 EUR
      const refused = await confirm(u, big.id, passwordOnly);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('second_factor_required');
      const noAmr = bearer(await signToken(t.keys, { sub: 'auth0|amr@muntly.test', email: u.email }));
      expect((await confirm(u, big.id, noAmr)).json().error.code).toBe('second_factor_required');
      const withOtp = bearer(
        await signToken(t.keys, { sub: 'auth0|amr@muntly.test', email: u.email, amr: ['pwd', 'otp'] }),
      );
      expect((await confirm(u, big.id, withOtp)).json().status).toBe('processing');
      // With Auth0 an Action puts both claims under a namespace (Auth0 reserves the plain names).
      const auth0 = bearer(
        await signToken(t.keys, {
          sub: 'auth0|amr@muntly.test',
          email: u.email,
          authTime: null,
          claims: {
            'https://muntly.test/auth_time': Math.floor(Date.now() / 1000) - 30,
            'https://muntly.test/amr': ['pwd', 'mfa'],
          },
        }),
      );
      const other = (await start(u, EXTERNAL, '0.002')).json();
      expect((await confirm(u, other.id, auth0)).json().status).toBe('processing');
    });

    it('counts the last 24 hours, not one send: parts that each stay below the limit need a second factor once together they pass it', async () => {
      const u = await user('split@muntly.test');
      await bookAddresses(t, u, [EXTERNAL]);
      const passwordOnly = bearer(
        await signToken(t.keys, { sub: 'auth0|split@muntly.test', email: u.email, amr: ['pwd'] }),
      );
      // 0.0012 BTC is 96 EUR: one is below the 100 EUR limit, two together are not.
      const first = (await start(u, EXTERNAL, '0.0012')).json();
      const second = (await start(u, EXTERNAL, '0.0012')).json();
      expect((await confirm(u, first.id, passwordOnly)).json().status).toBe('processing');
      expect((await confirm(u, second.id, passwordOnly)).json().error.code).toBe('second_factor_required');
      // A day later the first no longer counts.
      await t.app.db.execute(
        sql`update wallet_sends set confirmed_at = now() - interval '25 hours' where id = ${first.id}`,
      );
      expect((await confirm(u, second.id, passwordOnly)).json().status).toBe('processing');
    });
  });

  it('lists the security state and recent events: what, when, from which client', async () => {
    const u = await user('overview@muntly.test', '0');
    await add(u, EXTERNAL, 'BTC', { label: 'Mum' }, { 'user-agent': FIREFOX });
    await settings(u, { phrase: 'green tea' }, { 'user-agent': 'curl/8.5.0' });
    const overview = await security(u);
    expect(overview).toMatchObject({
      allowListOnly: true,
      phrase: { masked: 'g•••a' },
      frozen: false,
      unfreezesAt: null,
      sendsPausedUntil: null,
      holdHours: 24,
      secondFactorAboveEur: '100.00',
      addressBook: [{ address: EXTERNAL, label: 'Mum', onHold: true }],
    });
    expect(Date.parse(overview.allowListOffFrom) - Date.now()).toBeGreaterThan(DAY_S * 1000 - 120_000);
    expect(overview.events).toEqual([
      { kind: 'phrase_set', at: expect.any(String), client: 'curl', detail: null },
      {
        kind: 'address_added',
        at: expect.any(String),
        client: 'Firefox on Linux',
        detail: { currency: 'BTC', address: EXTERNAL, label: 'Mum' },
      },
    ]);
    expect((await t.app.inject({ url: '/api/wallet/security' })).statusCode).toBe(401);
  });
});
