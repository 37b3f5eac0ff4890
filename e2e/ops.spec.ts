import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { camt053Statement } from '../server/test/fixtures/camt053';
import { opsRouteNames, opsRoutes } from '../src/i18n/ops-routes';
import { test, expect, locale, localizePath, ops, opsServerURL } from './fixtures';
import type { Page } from '@playwright/test';

/**
 * The operator's day in the console (/ops/), on a server of its own (playwright.config.ts: its
 * euros leave by the payouts file; a payout above 40 EUR waits for four eyes). An operator logs
 * in, uploads the day's camt.053 statement — two buys paid, one payment unmatched — assigns the
 * unmatched one, approves a large payout that a first operator reviewed (who cannot approve it
 * twice), exports the pain.001 payouts file, and finds each step in the audit trail, whose chain
 * holds. Then every console page, in English and German, on a phone and a desktop.
 */
test.use({ baseURL: opsServerURL() });
test.describe.configure({ mode: 'serial' });

const en = locale('en', 'ops');
const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((s, [k, v]) => s.replace(`{{${k}}}`, String(v)), text);

const OPERATOR = { email: 'demo@muntly.test', password: 'muntly-demo' };
const CUSTOMER = { email: 'demo2@muntly.test', password: 'muntly-demo' };
const BTC_ADDRESS = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const SELLER_IBAN = 'DE02120300000000202051';
const ISO20022 = path.join(__dirname, '../server/test/fixtures/iso20022');

/** What the journey leaves for the page tour: an order and an account to open. */
const seen: { reference?: string; accountKey?: string } = {};

type Placed = { reference: string; shortReference: string; receiving: { address: string } | null };

async function placeOrder(page: Page, body: Record<string, string>): Promise<Placed> {
  const response = await page.request.post('/api/orders', { data: body });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as Placed;
}

/** The console's login: the page offers it, the local identity provider takes the password, the page comes back. */
async function logInAt(
  page: Page,
  url: string,
  who: { email: string; password: string },
  language: 'en' | 'de' = 'en',
) {
  const texts = locale(language, 'ops');
  const auth = locale(language, 'auth');
  await page.goto(url);
  await expect(page.getByText(texts.gate.loggedOut)).toBeVisible();
  await page.getByRole('button', { name: texts.gate.login }).click();
  await expect(page.getByRole('heading', { name: auth.idp.loginTitle })).toBeVisible();
  await page.getByLabel(auth.idp.email).fill(who.email);
  await page.getByLabel(auth.idp.password).fill(who.password);
  await page.getByRole('button', { name: auth.idp.loginButton }).click();
  await expect(page).toHaveURL(new URL(url, opsServerURL()).href);
}

const navLink = (page: Page, name: keyof typeof opsRoutes) =>
  page
    .getByRole('navigation', { name: en.nav.label })
    .getByRole('link', { name: new RegExp(`^${en.pages[name].nav}`) });

async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

test('an operator’s day: statement in, unmatched payment assigned, a large payout approved by a second operator, payouts file out, every step in the audit trail', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  ops(baseURL!, 'grant-admin', OPERATOR.email);

  // The day's business: three buys waiting for their bank transfer, and a sell to an IBAN whose
  // euros, worth about 80 EUR, are above this server's approval limit.
  const buyers = [1, 2, 3].map((n) => `buyer-${n}-${stamp}@muntly.test`);
  const buys: Placed[] = [];
  for (const email of buyers)
    buys.push(
      await placeOrder(page, {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '20',
        email,
        address: BTC_ADDRESS,
      }),
    );
  const { rates } = (await (await page.request.get('/api/rates')).json()) as { rates: Record<string, string> };
  const btc = (80 / Number(rates.BTC)).toFixed(8);
  const sell = await placeOrder(page, {
    type: 'sell',
    currencyFrom: 'BTC',
    currencyTo: 'EUR',
    amount: btc,
    email: `seller-${stamp}@muntly.test`,
    address: SELLER_IBAN,
    beneficiary: 'Selma Seller',
  });
  expect(ops(baseURL!, 'chain-deposit', 'BTC', sell.receiving!.address, btc)).toContain('Credited');
  // The order worker converts it; its payout waits for two operators. The first reviews it from
  // the command line, and cannot approve it a second time.
  const held = await waitFor('the sell’s payout to wait for approval', () => {
    const waiting = JSON.parse(ops(baseURL!, 'payouts', '--status', 'awaiting_approval', '--json')) as {
      id: string;
      rail: string;
      destination: string;
    }[];
    return waiting.find((p) => p.rail === 'bank' && p.destination === SELLER_IBAN);
  });
  expect(ops(baseURL!, '--as', 'anna@ops.test', 'payout-approve', held.id)).toContain(
    'waits for the approval of another operator',
  );
  expect(() => ops(baseURL!, '--as', 'anna@ops.test', 'payout-approve', held.id)).toThrow(/approval_same_operator/);

  // The operator logs in to the console.
  await logInAt(page, '/ops/', OPERATOR);
  await expect(navLink(page, 'ops_payouts')).toHaveText(
    `${en.pages.ops_payouts.nav}1${fill(en.nav.waiting, { count: 1 })}`,
  );

  // Statement in: the first two buyers paid with their reference, the third wrote something else.
  const statement = camt053Statement({
    iban: 'DE89370400440532013000',
    day: new Date().toISOString().slice(0, 10),
    statementId: `STMT-${stamp}`,
    credits: [
      {
        bankReference: `${stamp}-1`,
        amount: '20.00',
        payer: 'Jürgen Müller',
        payerIban: 'DE02120300000000202051',
        reason: buys[0]!.shortReference,
      },
      {
        bankReference: `${stamp}-2`,
        amount: '20.00',
        payer: 'Marie Dubois',
        payerIban: 'FR1420041010050500013M02606',
        reason: buys[1]!.shortReference.toLowerCase().replace('-', ' '),
      },
      {
        bankReference: `${stamp}-3`,
        amount: '20.00',
        payer: 'Luca Rossi',
        payerIban: 'IT60X0542811101000000123456',
        reason: 'Muntly Bitcoin Bestellung',
      },
    ],
  });
  const xsd = (name: string) => ({ fileName: name, contents: fs.readFileSync(path.join(ISO20022, name), 'utf8') });
  expect(
    (
      await validateXML({
        xml: [{ fileName: 'statement.xml', contents: statement }],
        schema: [xsd('camt.053.001.02.xsd')],
      })
    ).errors,
  ).toEqual([]);
  await navLink(page, 'ops_bank').click();
  await page
    .getByLabel(en.bank.statement.file)
    .setInputFiles({ name: 'statement.xml', mimeType: 'application/xml', buffer: Buffer.from(statement) });
  await page.getByRole('button', { name: en.bank.statement.upload }).click();
  await expect(page.getByRole('main').getByRole('status')).toHaveText(
    fill(en.bank.imported, { version: 'camt.053.001.02', booked: 2, unmatched: 1, duplicate: 0, completed: 0 }),
  );
  await expect(navLink(page, 'ops_unmatched')).toHaveText(
    `${en.pages.ops_unmatched.nav}1${fill(en.nav.waiting, { count: 1 })}`,
  );
  for (const buy of buys.slice(0, 2)) {
    expect(JSON.parse(ops(baseURL!, 'order', buy.reference, '--json')).order.status).not.toBe('new');
  }

  // The unmatched payment: Luca Rossi meant the third buy. Assign it.
  await page.getByRole('link', { name: en.bank.statement.toUnmatched }).click();
  const payment = page.locator('li.ops-item').filter({ hasText: 'Muntly Bitcoin Bestellung' });
  // The payer's IBAN grouped by four, as every IBAN on every page (domain/format.ts).
  await expect(payment).toContainText('IT60 X054 2811 1010 0000 0123 456');
  await expect(payment).toContainText(en.unmatched.whyCodes.not_found);
  await payment.getByLabel(en.unmatched.assignTo).fill(buys[2]!.shortReference);
  await payment.getByRole('button', { name: en.unmatched.assign }).click();
  await expect(payment.getByRole('status')).toHaveText(
    fill(en.unmatched.assigned, { reference: buys[2]!.reference, status: en.orderStatus.processing }),
  );
  await expect(navLink(page, 'ops_unmatched')).toHaveText(
    `${en.pages.ops_unmatched.nav}0${fill(en.nav.waiting, { count: 0 })}`,
  );

  // The large payout: reviewed by Anna, released by this operator.
  await navLink(page, 'ops_payouts').click();
  const payout = page.locator(`li[data-payout="${held.id}"]`);
  await expect(payout).toContainText(en.payouts.reasons.above_limit);
  await expect(payout).toContainText('ops-cli:anna@ops.test');
  await expect(payout).toContainText(en.payouts.state.reviewed);
  await expect(payout).toContainText(SELLER_IBAN);
  await payout.getByRole('button', { name: en.payouts.approveSecond }).click();
  await expect(payout.getByRole('status')).toHaveText(en.payouts.released);
  await expect(navLink(page, 'ops_payouts')).toHaveText(
    `${en.pages.ops_payouts.nav}0${fill(en.nav.waiting, { count: 0 })}`,
  );

  // Payouts file out: a pain.001 the official schema accepts, paying the seller.
  await navLink(page, 'ops_bank').click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: en.bank.export.make }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.xml$/);
  const pain = fs.readFileSync((await download.path())!, 'utf8');
  expect(
    (await validateXML({ xml: [{ fileName: 'payouts.xml', contents: pain }], schema: [xsd('pain.001.001.09.xsd')] }))
      .errors,
  ).toEqual([]);
  expect(pain).toContain('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09');
  expect(pain).toContain(`<IBAN>${SELLER_IBAN}</IBAN>`);
  expect(pain).toContain(`<EndToEndId>${held.id.replace(/-/g, '')}</EndToEndId>`);
  await expect(page.getByRole('main').getByRole('status')).toContainText(download.suggestedFilename());
  await expect(page.getByRole('table')).toContainText(download.suggestedFilename().replace(/\.xml$/, ''));
  expect(
    JSON.parse(ops(baseURL!, 'payouts', '--status', 'submitted', '--json')).map((p: { id: string }) => p.id),
  ).toContain(held.id);

  // The audit trail shows each step, by whom; the chain holds, here and from the command line.
  await navLink(page, 'ops_audit').click();
  const trail = page.getByRole('table');
  for (const action of [
    en.auditActions.bank.payment_matched,
    en.auditActions.bank.payment_unmatched,
    en.auditActions.bank.payment_assigned,
    en.auditActions.payout.review,
    en.auditActions.payout.approve,
    en.auditActions.bank.payouts_exported,
  ]) {
    await expect(trail.getByRole('row').filter({ hasText: action }).first()).toBeVisible();
  }
  await expect(trail.getByRole('row').filter({ hasText: en.auditActions.bank.payment_matched })).toHaveCount(2);
  await page.getByLabel(en.audit.action).selectOption('payout.');
  await page.getByRole('button', { name: en.audit.filter }).click();
  await expect(trail.getByRole('row').filter({ hasText: en.auditActions.payout.review })).toContainText(
    'ops-cli:anna@ops.test',
  );
  await expect(trail.getByRole('row').filter({ hasText: en.auditActions.payout.approve })).toContainText(en.common.you);
  await page.getByRole('button', { name: en.audit.verify }).click();
  await expect(page.getByRole('main').getByRole('status')).toContainText(en.audit.holds.split('{{rows}}')[0]!);
  expect(ops(baseURL!, 'audit:verify')).toContain('The audit trail holds');

  // The order assigned by hand tells its whole history, the operator's assignment in it.
  await page.goto(`/ops/orders/?reference=${buys[2]!.reference}`);
  const history = page.getByRole('table');
  await expect(history).toContainText(en.orders.events.placed);
  await expect(history).toContainText(en.orders.events.funded);
  await expect(history.getByRole('row').filter({ hasText: en.auditActions.bank.payment_assigned })).toContainText(
    en.common.you,
  );
  seen.reference = sell.reference;
  // The customer's account (made by their first call to the API) for the page tour to open.
  const token = ops(baseURL!, 'dev-token', CUSTOMER.email).trim().split('\n').pop()!;
  seen.accountKey = (
    (await (await page.request.get('/api/me', { headers: { authorization: `Bearer ${token}` } })).json()) as {
      accountKey: string;
    }
  ).accountKey;
});

/**
 * What waits the next morning, so that the page tour sees every queue with something in it: an
 * unmatched payment, two large payouts (one reviewed by Anna), a customer's one-click request and
 * their ID details waiting for the document check.
 */
async function seedQueues(page: Page, baseURL: string) {
  const stamp = Date.now();
  const { rates } = (await (await page.request.get('/api/rates')).json()) as { rates: Record<string, string> };
  const btc = (70 / Number(rates.BTC)).toFixed(8);
  const sells: Placed[] = [];
  for (const n of [1, 2]) {
    const sell = await placeOrder(page, {
      type: 'sell',
      currencyFrom: 'BTC',
      currencyTo: 'EUR',
      amount: btc,
      email: `seller-${n}-${stamp}@muntly.test`,
      address: SELLER_IBAN,
      beneficiary: 'Selma Seller',
    });
    ops(baseURL, 'chain-deposit', 'BTC', sell.receiving!.address, btc);
    sells.push(sell);
  }
  const held = await waitFor('both sells’ payouts to wait', () => {
    const waiting = JSON.parse(ops(baseURL, 'payouts', '--status', 'awaiting_approval', '--json')) as { id: string }[];
    return waiting.length >= 2 ? waiting : undefined;
  });
  ops(baseURL, '--as', 'anna@ops.test', 'payout-approve', held[0]!.id);
  const statement = camt053Statement({
    iban: 'DE89370400440532013000',
    day: new Date().toISOString().slice(0, 10),
    statementId: `STMT-${stamp}`,
    credits: [
      {
        bankReference: `${stamp}-9`,
        amount: '150.00',
        payer: 'Anna Schmidt',
        payerIban: 'DE02120300000000202051',
        reason: 'Rechnung 2026-118 vielen Dank',
      },
    ],
  });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'muntly-statement-')), 'statement.xml');
  fs.writeFileSync(file, statement);
  expect(ops(baseURL, 'import-statement', file)).toContain('1 unmatched');
  const token = ops(baseURL, 'dev-token', CUSTOMER.email).trim().split('\n').pop()!;
  const headers = { authorization: `Bearer ${token}`, 'accept-language': 'de' };
  expect((await page.request.post('/api/identity/mobile/request', { headers })).status()).toBe(200);
  ops(baseURL, 'enable-verification', CUSTOMER.email, 'id');
  const person = {
    salutation: 'mr',
    firstName: 'Zweiter',
    lastName: 'Demo',
    birthdate: '1985-06-01',
    nationality: 'DE',
    email: CUSTOMER.email,
    mobile: '+49 151 23456789',
    street: 'Hauptstraße 1',
    zip: '10115',
    city: 'Berlin',
    country: 'DE',
  };
  expect((await page.request.post('/api/identity/id', { headers, data: person })).status()).toBe(200);
}
let seeded = false;

/** Every console page and the refusal, at a phone's and a desktop's width: nothing scrolls sideways; the screenshots are kept. */
for (const language of ['en', 'de'] as const) {
  test(`the console in ${language} at 360 and 1280 px: every page fits, and a customer is politely refused`, async ({
    browser,
    page: setup,
    baseURL,
  }, testInfo) => {
    test.setTimeout(300_000);
    if (!seeded) await seedQueues(setup, baseURL!);
    seeded = true;
    const texts = locale(language, 'ops');
    const decline = locale(language, 'common').cookieBanner.decline as string;
    const dir = process.env.OPS_SHOTS_DIR ?? testInfo.outputPath('shots');
    fs.mkdirSync(dir, { recursive: true });
    const sideways: string[] = [];
    const look = async (page: Page, name: string, width: number) => {
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (overflow > 1) sideways.push(`${language} ${name} ${width}px: ${overflow}px`);
      await page.screenshot({ path: path.join(dir, `${language}-${name}-${width}.png`), fullPage: true });
    };
    for (const width of [360, 1280]) {
      const context = await browser.newContext({
        viewport: { width, height: 800 },
        isMobile: width < 600,
        hasTouch: width < 600,
        baseURL: opsServerURL(),
      });
      const page = await context.newPage();
      await logInAt(page, localizePath('/ops/', language), OPERATOR, language);
      await page.getByRole('button', { name: decline }).click();
      for (const name of opsRouteNames) {
        const query =
          name === 'ops_orders' && seen.reference
            ? `?reference=${seen.reference}`
            : name === 'ops_accounts' && seen.accountKey
              ? `?key=${seen.accountKey}`
              : '';
        await page.goto(`${localizePath(opsRoutes[name], language)}${query}`);
        await expect(page.getByRole('heading', { level: 1, name: texts.pages[name].title })).toBeVisible();
        await expect(page.getByRole('navigation', { name: texts.nav.label })).toBeVisible();
        await expect(page.getByText(texts.common.loading)).toHaveCount(0);
        await look(page, name, width);
      }
      await context.close();

      const customer = await browser.newContext({
        viewport: { width, height: 800 },
        isMobile: width < 600,
        hasTouch: width < 600,
        baseURL: opsServerURL(),
      });
      const refused = await customer.newPage();
      await logInAt(refused, localizePath('/ops/', language), CUSTOMER, language);
      await refused.getByRole('button', { name: decline }).click();
      await expect(refused.getByRole('heading', { name: texts.gate.refused.title })).toBeVisible();
      await expect(refused.getByRole('navigation', { name: texts.nav.label })).toHaveCount(0);
      await expect(refused.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
      await look(refused, 'refused', width);
      await customer.close();
    }
    expect(sideways).toEqual([]);
  });
}

test('the console is in no sitemap', async ({ request }) => {
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  expect(sitemap).toContain('/fees/');
  expect(sitemap).not.toContain('/ops/');
});
