import AxeBuilder from '@axe-core/playwright';
import { epcPayload } from '#domain/epc';
import { qrPath } from '../src/features/exchange/components/qr-code';
import { test, expect, locale, logInAfterSignUp, ops, pickCurrency } from './fixtures';
import type { Page } from '@playwright/test';

/**
 * The exchange journeys in Chromium against the real server: an anonymous buy in German from the
 * form to the GiroCode and, once the bank payment arrives, to completed (success) without a
 * reload; the API's rejections next to the fields they concern; a lookup that finds nothing.
 */
const de = locale('de', 'exchange');
const en = locale('en', 'exchange');
const fr = locale('fr', 'exchange');
const nl = locale('nl', 'exchange');
const enErrors = locale('en', 'errors');
const nlErrors = locale('nl', 'errors');

const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const REFERENCE = /^[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}$/;

const uniqueEmail = (name: string) => `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@muntly.test`;

async function expectAccessible(page: Page, where: string) {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${where} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
    [],
  );
}

/** The error shown next to a field (the element its aria-describedby names). */
const errorOf = (page: Page, id: string) => page.locator(`#${id}-error`);

test('an anonymous buy in German: payment details and GiroCode, then completed (success) live, without a reload', async ({
  page,
  baseURL,
}) => {
  const email = uniqueEmail('kaeufer');
  await page.goto('/de/exchange/buy/');
  await pickCurrency(page, de.form.to.buy, 'BTC');
  await page.getByLabel('Betrag in EUR').fill('50');
  await page.getByLabel(de.form.email, { exact: true }).fill(email);
  await page.getByLabel('Ihre BTC-Adresse').fill(BTC_ADDRESS);
  await page.getByLabel(de.form.paymentMethod).selectOption('sepa_instant');
  // The live estimate, in German, with the floating-rate statement.
  const quote = page.getByTestId('quote');
  await expect(quote).toContainText(de.quote.converted);
  await expect(quote).toContainText('BTC');
  // Each amount and the rate with its currency's logo, served by the site itself.
  await expect(quote.locator('img.currency-icon[src$="/btc.svg"]').first()).toBeVisible();
  await expect(page.getByText(de.quote.floating)).toBeVisible();
  await expectAccessible(page, 'buy form');

  await page.getByRole('button', { name: de.form.submit.buy }).click();
  await expect(page.getByRole('heading', { name: de.confirm.heading.buy })).toBeVisible();
  const reference = (await page.getByTestId('order-reference').textContent())!.trim();
  expect(reference).toMatch(REFERENCE);
  const shortReference = reference.slice(0, 9);

  // What to do now, first: the transfer to make, each value with a copy button …
  const next = page.getByRole('region', { name: de.confirm.next });
  const fact = (label: string) =>
    next
      .locator('.pay-fact')
      .filter({ has: page.locator('dt').getByText(label, { exact: true }) })
      .locator('.pay-value');
  await expect(fact(de.confirm.payment.reason)).toHaveText(shortReference);
  await expect(fact(de.confirm.payment.amount)).toHaveText(/^50,00\s€$/);
  await expect(fact(de.confirm.payment.amount).locator('img.currency-icon')).toHaveAttribute(
    'src',
    /\/currency-icons\/[\d.]+\/eur\.svg$/,
  );
  await expect(next.getByRole('button', { name: 'IBAN kopieren' })).toBeVisible();
  const beneficiary = (await fact(de.confirm.payment.beneficiary).textContent())!;
  const iban = (await fact(de.confirm.payment.iban).textContent())!.replace(/\s/g, '');
  const bic = (await fact(de.confirm.payment.bic).textContent())!;
  // … and as the EPC069-12 GiroCode of exactly those details, drawn from the qrcode matrix.
  const qr = page.getByRole('img', { name: /^QR-Code für Ihre Banking-App: Überweisung von 50,00/ });
  await expect(qr).toBeVisible();
  const payload = (await qr.getAttribute('data-qr-text'))!;
  const amountLine = payload.split('\n')[7]!;
  expect(amountLine).toMatch(/^EUR50(\.0{1,2})?$/);
  expect(payload).toBe(epcPayload({ bic, beneficiary, iban, amountEur: amountLine.slice(3), reason: shortReference }));
  await expect(qr.locator('path')).toHaveAttribute('d', qrPath(payload).d);
  await expectAccessible(page, 'confirmation');

  // Follow the order: the order page, status new, live.
  await page.getByRole('link', { name: de.confirm.follow }).click();
  await expect(page).toHaveURL(/\/de\/exchange\/order-history\/$/);
  const status = page.locator('.status-now');
  await expect(status).toHaveText(`Aktueller Status: ${de.order.status.new}`);
  await expect(page.getByRole('list', { name: de.order.stepper }).locator('[aria-current="step"]')).toContainText(
    de.order.status.new,
  );
  await expect(page.getByText(reference).first()).toBeVisible();
  await page.evaluate(() => ((window as unknown as { e2eNoReload: boolean }).e2eNoReload = true));

  expect(ops(baseURL!, 'payment-received', shortReference, '50.00')).toContain('processing');
  await expect(status).toHaveText(`Aktueller Status: ${de.order.status.completed_success}`, { timeout: 30_000 });
  await expect(page.getByRole('list', { name: de.order.stepper }).locator('[aria-current="step"]')).toContainText(
    de.order.status.completed_success,
  );
  // The same document: the update arrived by server-sent events, not by reloading.
  expect(await page.evaluate(() => (window as unknown as { e2eNoReload?: boolean }).e2eNoReload)).toBe(true);
  const details = page.locator('.order-fields');
  await expect(details).toContainText(de.order.fields.actualAmountConverted);
  await expect(details).toContainText('50,00 €');
  await expectAccessible(page, 'order page');
});

test('local mode marks its sample values, and a placed order survives a reload through its signed link', async ({
  page,
}) => {
  const ruCommon = locale('ru', 'common');
  const ru = locale('ru', 'exchange');
  const ruErrors = locale('ru', 'errors');
  const sample = ruCommon.operator.sampleBadge;
  await page.goto('/ru/exchange/buy/');
  await page.getByLabel('Сумма в EUR').fill('40');
  await page.getByLabel(ru.form.email, { exact: true }).fill(uniqueEmail('perezagruzka'));
  await page.getByLabel('Ваш адрес BTC').fill(BTC_ADDRESS);
  // The simulated rates are marked as sample data wherever they show.
  await expect(page.getByTestId('quote')).toContainText(ru.quote.converted);
  await expect(page.locator('.quote-panel .sample-badge')).toHaveText(sample);
  // Who the customer deals with: the sample operator, marked, with its register and CASP licence.
  const licence = page.getByTestId('operator-licence');
  await expect(licence).toContainText('Sample Operator Ltd');
  await expect(licence).toContainText(ruCommon.operator.sample.casp);
  await expect(licence.locator('.sample-badge')).toHaveText(sample);

  await page.getByRole('button', { name: ru.form.submit.buy }).click();
  await expect(page.getByRole('heading', { name: ru.confirm.heading.buy })).toBeVisible();
  const reference = (await page.getByTestId('order-reference').textContent())!.trim();
  // The sample IBAN, BIC and account holder each carry the mark; by when to pay is said.
  const next = page.getByRole('region', { name: ru.confirm.next });
  await expect(next.locator('.pay-fact .sample-badge')).toHaveCount(3);
  await expect(next.getByTestId('pay-by')).toContainText('Оплатите до');
  await expect(next).toContainText(ru.confirm.outcomesBank);

  // The address now holds the order's signed link: a reload shows the same order.
  await expect(page).toHaveURL(/\/ru\/exchange\/buy\/\?order=[A-Z]{16}\.[0-9a-z]+\.[\w-]{43}$/);
  const url = page.url();
  await page.reload();
  await expect(page.getByRole('heading', { name: ru.confirm.heading.buy })).toBeVisible();
  await expect(page.getByTestId('order-reference')).toHaveText(reference);
  await expect(page.getByRole('region', { name: ru.confirm.next }).locator('.pay-fact .sample-badge')).toHaveCount(3);
  await expectAccessible(page, 'order after reload');

  // The same link on the order history page (as in the email) opens the order there too.
  await page.goto(url.replace('/ru/exchange/buy/', '/ru/exchange/order-history/'));
  await expect(page.getByRole('heading', { name: new RegExp(reference) })).toBeVisible();
  // Opened from the email again and again (more often than the lookups' limit of 10 a minute), it
  // stays: the page follows it live by its link, which no lookup limit counts.
  const followed: string[] = [];
  page.on('request', (request) => request.url().includes('/events?') && followed.push(request.url()));
  for (let i = 0; i < 6; i++) {
    await page.reload();
    await expect(page.getByRole('heading', { name: new RegExp(reference) })).toBeVisible();
  }
  await expect.poll(() => followed.length).toBeGreaterThan(0);
  expect(followed.filter((u) => !u.includes('?link='))).toEqual([]);
  // The order is what the link is for: finding another one waits, closed, below it.
  await expect(page.getByLabel(ru.history.email)).toBeHidden();
  await page.getByText(ru.history.findAnother).click();
  await expect(page.getByLabel(ru.history.email)).toBeVisible();
  // A tampered link opens nothing, and says so.
  await page.goto(
    url.replace(
      /\.([\w-]{43})$/,
      (_, mac: string) => `.${mac.slice(0, 10)}${mac[10] === 'A' ? 'B' : 'A'}${mac.slice(11)}`,
    ),
  );
  await expect(page.getByRole('alert')).toHaveText(ruErrors.link_invalid);
  await expect(page.getByTestId('order-reference')).toHaveCount(0);
});

test('a swap too small for the network fee is rejected, with the message next to the amount', async ({ page }) => {
  await page.goto('/exchange/swap/');
  await pickCurrency(page, en.form.from.swap, 'BTC');
  await pickCurrency(page, en.form.to.swap, 'ETH');
  await page.getByLabel('Amount in BTC').fill('0.00000001');
  await page.getByLabel(en.form.email, { exact: true }).fill(uniqueEmail('swapper'));
  // The address is checked in the browser first (its rules load in their own chunk).
  const orders: string[] = [];
  page.on('request', (request) => request.url().endsWith('/api/orders') && orders.push(request.method()));
  await page.getByLabel('Your ETH address').fill('0x52908400098527886e0f7030069857d2e4169Ee7');
  await page.getByRole('button', { name: en.form.submit.swap }).click();
  await expect(errorOf(page, 'order-address')).toHaveText(enErrors.invalid_address);
  expect(orders).toEqual([]);
  await page.getByLabel('Your ETH address').fill(ETH_ADDRESS);
  await expect(page.getByTestId('quote')).toContainText(enErrors.network_fee_exceeds_amount);
  await page.getByRole('button', { name: en.form.submit.swap }).click();
  await expect(errorOf(page, 'order-amount')).toHaveText(enErrors.network_fee_exceeds_amount);
  await expect(page.getByLabel('Amount in BTC')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'swap with error');
});

test('a first order over 100 EUR is rejected with the localized message', async ({ page }) => {
  await page.goto('/fr/exchange/buy/');
  await page.getByLabel('Montant en EUR').fill('150');
  await page.getByLabel(fr.form.email, { exact: true }).fill(uniqueEmail('premier'));
  await page.getByLabel('Votre adresse BTC').fill(BTC_ADDRESS);
  await page.getByRole('button', { name: fr.form.submit.buy }).click();
  await expect(errorOf(page, 'order-amount')).toHaveText(
    /^Ordre refusé\. Le premier ordre de chaque nouveau client est limité à 100,00\s€\.$/,
  );
  await expect(page.getByRole('heading', { name: fr.confirm.heading.buy })).toHaveCount(0);
});

test('a lookup with a wrong reference says no order was found', async ({ page }) => {
  await page.goto('/nl/exchange/order-history/');
  await page.getByLabel(nl.history.email).fill(uniqueEmail('zoeker'));
  // The format is checked in the browser …
  await page.getByLabel(nl.history.reference).fill('ABCD-EFGH');
  await page.getByRole('button', { name: nl.history.submit }).click();
  await expect(errorOf(page, 'lookup-reference')).toHaveText(nlErrors.invalid_reference);
  // … a well-formed reference that is not ours (any case, without dashes) gets the uniform answer.
  await page.getByLabel(nl.history.reference).fill('abcdefghijklmnop');
  await page.getByRole('button', { name: nl.history.submit }).click();
  await expect(page.getByRole('alert')).toHaveText(nl.history.notFound);
  await expectAccessible(page, 'lookup not found');
});

test('a sell to an IBAN: the receiving address with its QR code, then completed once the crypto arrives', async ({
  page,
  baseURL,
}) => {
  await page.goto('/exchange/sell/');
  await pickCurrency(page, en.form.from.sell, 'BTC');
  await page.getByLabel('Amount in BTC').fill('0.0005');
  await page.getByLabel(en.form.email, { exact: true }).fill(uniqueEmail('seller'));
  await page.getByLabel(en.form.iban).fill('nl91 abna 0417 1643 00');
  await page.getByLabel(en.form.beneficiary).fill('Sam Seller');
  await expect(page.getByTestId('send-only-hint')).toHaveText(locale('en', 'currencies').sendOnly.BTC);
  await expect(page.getByTestId('quote')).toContainText('€');
  await page.getByRole('button', { name: en.form.submit.sell }).click();
  await expect(page.getByRole('heading', { name: en.confirm.heading.sell })).toBeVisible();
  await expect(page.getByText('We then pay the euros to your bank account NL91 ABNA 0417 1643 00.')).toBeVisible();
  const receiving = page.getByRole('region', { name: en.confirm.next }).locator('.receiving');
  await expect(receiving.getByRole('button', { name: 'Copy address' })).toBeVisible();
  // Exactly this amount, only BTC on the Bitcoin network, from a wallet the seller controls.
  await expect(receiving.getByTestId('send-only')).toHaveText(
    `Send exactly 0.0005 BTC, from a wallet you control. ${locale('en', 'currencies').sendOnly.BTC}`,
  );
  const address = (await receiving.locator('code.address').textContent())!;
  expect(address).toMatch(/^bc1q/);
  const qr = receiving.getByRole('img', { name: `QR code of the address ${address}` });
  await expect(qr.locator('path')).toHaveAttribute('d', qrPath(address).d);
  await expectAccessible(page, 'sell confirmation');

  await page.getByRole('link', { name: en.confirm.follow }).click();
  const status = page.locator('.status-now');
  await expect(status).toHaveText(`Status: ${en.order.status.new}`);
  expect(ops(baseURL!, 'chain-deposit', 'BTC', address, '0.0005')).toContain('0.0005');
  await expect(status).toHaveText(`Status: ${en.order.status.completed_success}`, { timeout: 30_000 });
  await expect(page.locator('.order-fields')).toContainText('0.0005 BTC');
});

test('logged in: send to my wallet, the own-order list and the deposit reference', async ({ page, baseURL }) => {
  const auth = locale('en', 'auth');
  const email = uniqueEmail('walletuser');
  await page.goto('/register/');
  await page.getByLabel(auth.idp.name).fill('Wally Exchange');
  await page.getByLabel(auth.idp.email).fill(email);
  await page.getByLabel(auth.idp.password).fill('a-long-password');
  await page.getByRole('button', { name: auth.idp.signupButton }).click();
  await logInAfterSignUp(page, email);
  await expect(page.getByRole('banner').getByText('Wally Exchange')).toBeVisible();

  // Without a verified bank account the wallet options are refused, with the way to fix it.
  await page.goto('/exchange/buy/');
  await pickCurrency(page, en.form.to.buy, 'SOL');
  await expect(page.getByText(en.form.partialNotice)).toBeVisible();
  await page.getByLabel(en.form.sendToMyWallet).check();
  await expect(page.getByLabel('Your SOL address')).toHaveCount(0);
  await page.getByLabel('Amount in EUR').fill('40');
  await page.getByLabel(en.form.email, { exact: true }).fill(email);
  await expect(page.getByTestId('quote')).toContainText(en.quote.noNetworkFee);
  await page.getByRole('button', { name: en.form.submit.buy }).click();
  await expect(page.getByRole('alert')).toContainText(enErrors.bank_verification_required);
  await expect(page.getByRole('link', { name: en.form.verifyBank })).toHaveAttribute('href', '/identity/me/');

  expect(ops(baseURL!, 'verify', email, 'bank')).toContain('verified');
  await page.getByRole('button', { name: en.form.submit.buy }).click();
  await expect(page.getByRole('heading', { name: en.confirm.heading.buy })).toBeVisible();
  await expect(page.getByText(en.confirm.delivery.wallet)).toBeVisible();
  await expect(page.getByRole('region', { name: en.confirm.next })).toContainText('DE89 3704 0044 0532 0130 00');
  const reference = (await page.getByTestId('order-reference').textContent())!.trim();

  await page.goto('/exchange/order-history/');
  const mine = page.getByRole('region', { name: en.history.mine });
  await expect(mine.getByRole('row', { name: new RegExp(reference) })).toContainText(en.order.status.new);
  await mine.getByRole('button', { name: `Show order ${reference}` }).click();
  await expect(page.getByRole('heading', { name: `Order ${reference}` })).toBeVisible();
  await expect(page.locator('.order-fields')).toContainText(en.order.intoWallet);
  await expectAccessible(page, 'own orders');

  await page.goto('/exchange/deposit/');
  await expect(page.getByTestId('deposit-reference')).toHaveText(/^DEPOSIT[0-9A-Z]+$/);
  const own = (await page.getByTestId('deposit-reference').textContent())!;
  await expect(page.getByRole('table')).toContainText('COBADEFFXXX');
  // The own reference first, to copy and in the QR code; the pattern's example below, marked as one.
  await expect(page.getByRole('button', { name: 'Copy payment reason' }).first()).toBeVisible();
  expect((await page.getByRole('img', { name: new RegExp(own) }).getAttribute('data-qr-text'))!.split('\n')[10]).toBe(
    own,
  );
  await expect(page.locator('.deposit-example .example-badge')).toHaveText(en.deposit.example);
  // The sample account is marked beside each value.
  await expect(page.getByRole('table').locator('.sample-badge')).toHaveCount(3);
  await expectAccessible(page, 'deposit');
});
