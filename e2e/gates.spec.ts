import { test, expect, locale, ops, signUp, pickCurrency } from './fixtures';

const en = locale('en', 'exchange');
const enErrors = locale('en', 'errors');
const wallet = locale('en', 'wallet');
const ETH_OUT = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';

/**
 * An order paid from the wallet to an address outside it is a send (issue 29): the address book
 * and its hold, then the code emailed to the account, before anything leaves the wallet.
 */
test('a swap paid from the wallet out to an address waits for the book’s hold and the emailed code', async ({
  page,
  baseURL,
}) => {
  const email = `gate-${Date.now()}@muntly.test`;
  await signUp(page, 'Gate Keeper', email);
  expect(ops(baseURL!, 'verify', email, 'bank')).toContain('verified');
  await page.goto('/wallet/receive/');
  await pickCurrency(page, wallet.receive.currency, 'BTC');
  await page.getByRole('button', { name: wallet.receive.create }).click();
  const address = (await page.locator('.address-item code.address').first().textContent())!;
  expect(ops(baseURL!, 'chain-deposit', 'BTC', address, '0.01')).toContain('Credited');

  // The ETH address goes into the address book: usable after its hold (45 seconds in the journeys' server).
  await page.goto('/wallet/security/');
  await pickCurrency(page, wallet.security.bookCurrency, 'ETH');
  await page.getByRole('textbox', { name: wallet.security.bookAddress, exact: true }).fill(ETH_OUT);
  await page.getByRole('button', { name: wallet.security.bookAddButton, exact: true }).click();
  await expect(page.locator('.book-entry', { hasText: ETH_OUT })).toBeVisible();

  const placeSwap = async () => {
    await page.goto('/exchange/swap/');
    await pickCurrency(page, en.form.from.swap, 'BTC');
    await page.getByLabel(en.form.useMyWallet).check();
    await pickCurrency(page, en.form.to.swap, 'ETH');
    await page.getByLabel('Amount in BTC').fill('0.001');
    await page.getByLabel(en.form.email, { exact: true }).fill('someone-else@example.com');
    await page.getByLabel('Your ETH address').fill(ETH_OUT);
    await page.getByRole('button', { name: en.form.submit.swap }).click();
  };
  // Still on hold: refused next to the address, nothing placed.
  await placeSwap();
  await expect(page.getByLabel('Your ETH address')).toHaveAccessibleDescription(
    new RegExp(enErrors.address_on_hold.split('{{')[0].trim()),
  );
  await expect(async () => {
    await placeSwap();
    await expect(page.getByRole('heading', { name: en.walletCode.heading })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 80_000, intervals: [5_000] });

  // The code went to the account's address, not to the one typed in the form.
  const reference = (await page.getByTestId('order-reference').textContent())!.trim();
  const outbox = JSON.parse(ops(baseURL!, 'outbox', '--json', '--to', email)) as { subject: string; body: string }[];
  const mail = outbox.find((m) => m.subject.startsWith('Confirm your order') && m.subject.includes(reference))!;
  const code = /wallet:\s+([A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4})/.exec(mail.body)![1]!;
  expect(JSON.parse(ops(baseURL!, 'outbox', '--json', '--to', 'someone-else@example.com'))).toEqual([]);
  await page.getByLabel(en.walletCode.code).fill(code.toLowerCase());
  await page.getByRole('button', { name: en.walletCode.confirm }).click();
  await expect(page.getByRole('heading', { name: en.walletCode.heading })).toHaveCount(0);
  await page.goto('/wallet/balances/');
  await expect(page.getByRole('row', { name: /^Bitcoin BTC/ })).toContainText('0.009 BTC');
});
