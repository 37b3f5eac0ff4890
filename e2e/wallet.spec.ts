import AxeBuilder from '@axe-core/playwright';
import { test, expect, locale, ops, signUp, pickCurrency } from './fixtures';
import type { Page } from '@playwright/test';

const wallet = locale('en', 'wallet');
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

async function receiveAddress(page: Page): Promise<string> {
  await page.goto('/wallet/receive/');
  await pickCurrency(page, wallet.receive.currency, 'BTC');
  await page.getByRole('button', { name: wallet.receive.create }).click();
  const address = page.locator('.address-item code.address').first();
  await expect(address).toHaveText(/^bc1q/);
  await expect(page.getByRole('img', { name: /^QR code of the address bc1q/ })).toBeVisible();
  return (await address.textContent())!;
}

/** The newest code mailed to `email` (the dev mailbox lists the newest first). */
async function mailedCode(page: Page, email: string): Promise<string> {
  const mailbox = await page.context().newPage();
  await mailbox.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  // The text version sits in a closed fold-out under the HTML one: read its text, not what is shown.
  const code = /[A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4}/.exec(
    (await mailbox.locator('pre').first().textContent()) ?? '',
  )![0];
  await mailbox.close();
  return code;
}

test('receive, deposit, send to another Muntly user with the emailed code; both see the transaction', async ({
  page,
  browser,
  baseURL,
}) => {
  // Two address-book holds of 45 seconds each (another Muntly wallet's too, issue 34).
  test.setTimeout(240_000);
  const stamp = Date.now();
  const alice = `alice-${stamp}@muntly.test`;
  const bob = `bob-${stamp}@muntly.test`;

  await signUp(page, 'Alice Wallet', alice);
  // Without a verified bank account the wallet explains why before any form, and the
  // verification is asked for in one click.
  await page.goto('/wallet/receive/');
  await expect(page.getByRole('heading', { name: wallet.bankRequired.title })).toBeVisible();
  await expect(page.getByRole('button', { name: wallet.receive.create })).toHaveCount(0);
  await page.getByRole('button', { name: wallet.bankRequired.request }).click();
  await expect(
    page.getByRole('status').filter({ hasText: wallet.bankRequired.requested.split('{{date}}')[0]! }),
  ).toBeVisible();

  const bobContext = await browser.newContext();
  const bobPage = await bobContext.newPage();
  await signUp(bobPage, 'Bob Wallet', bob);
  for (const email of [alice, bob]) expect(ops(baseURL!, 'verify', email, 'bank')).toContain('verified');

  const aliceAddress = await receiveAddress(page);
  const bobAddress = await receiveAddress(bobPage);
  expect(ops(baseURL!, 'chain-deposit', 'BTC', aliceAddress, '0.01')).toContain('Credited 0.01000000 BTC');

  await page.goto('/wallet/balances/');
  await expect(page.getByRole('row', { name: /^Bitcoin BTC/ })).toContainText('0.01 BTC');

  // New accounts send only to their address book, after each entry's hold (45 seconds in the
  // journeys' server, a day by default) — another Muntly wallet's too (issue 34).
  await page.goto('/wallet/security/');
  for (const address of [bobAddress, EXTERNAL]) {
    await pickCurrency(page, wallet.security.bookCurrency, 'BTC');
    await page.getByRole('textbox', { name: wallet.security.bookAddress, exact: true }).fill(address);
    await page.getByRole('button', { name: wallet.security.bookAddButton, exact: true }).click();
    await expect(page.locator('.book-entry', { hasText: address })).toBeVisible();
  }
  await expect(page.locator('.book-entry', { hasText: bobAddress })).toContainText(
    wallet.security.bookOnHold.split('{{when}}')[0]!.trim(),
  );
  await expect(page.locator('.book-entry', { hasText: EXTERNAL })).toContainText(
    wallet.security.bookOnHold.split('{{when}}')[0]!.trim(),
  );
  await expect(async () => {
    await page.reload();
    await expect(page.locator('.book-entry', { hasText: bobAddress })).toContainText(wallet.security.bookUsable, {
      timeout: 3_000,
    });
  }).toPass({ timeout: 80_000, intervals: [5_000] });

  await page.goto('/wallet/send/');
  await pickCurrency(page, wallet.send.currency, 'BTC');
  await page.getByLabel(wallet.send.address).fill(bobAddress);
  // Typed with a decimal comma, as German, French, Dutch, Russian and Ukrainian write it: the same 0.004 BTC.
  await page.getByLabel(wallet.send.amount).fill('0,004');
  // Bob's address is another Muntly wallet: the form says so before anything is sent.
  await expect(page.getByTestId('send-fee')).toHaveText(wallet.send.feeInternal.replace('{{fee}}', '0 BTC'));
  await page.getByRole('button', { name: wallet.send.continue }).click();
  await expect(page.getByText(wallet.send.internal)).toBeVisible();

  await page.getByLabel(wallet.send.code).fill(await mailedCode(page, alice));
  await page.getByRole('button', { name: wallet.send.confirm }).click();
  await expect(page.getByText(wallet.send.completed)).toBeVisible();

  await page.goto('/wallet/transactions/');
  await expect(page.getByRole('row', { name: new RegExp(wallet.transactions.types.internal) })).toContainText(
    '−0.004 BTC',
  );

  // To an address outside Muntly: the network fee before sending; once paid out, the chain's hash
  // links to the block explorer configured for BTC (playwright.config.ts sets EXPLORER_URL_BTC), on
  // the send's page and in the transactions.
  await expect(async () => {
    await page.goto('/wallet/security/');
    await expect(page.locator('.book-entry', { hasText: EXTERNAL })).toContainText(wallet.security.bookUsable, {
      timeout: 2_000,
    });
  }).toPass({ timeout: 60_000, intervals: [5_000] });
  await page.goto('/wallet/send/');
  await pickCurrency(page, wallet.send.currency, 'BTC');
  await page.getByLabel(wallet.send.address).fill(EXTERNAL);
  await page.getByLabel(wallet.send.amount).fill('0.001');
  await expect(page.getByTestId('send-fee')).toHaveText(wallet.send.fee.replace('{{fee}}', '0.00002 BTC'));
  await page.getByRole('button', { name: wallet.send.continue }).click();
  await page.getByLabel(wallet.send.code).fill(await mailedCode(page, alice));
  await page.getByRole('button', { name: wallet.send.confirm }).click();
  // Alice's bank account was verified minutes ago: the payout waits for four eyes
  // (PAYOUT_APPROVAL_NEW_ACCOUNT_DAYS), she is told so, and two operators release it.
  await expect(page.getByText(wallet.send.awaitingApproval)).toBeVisible({ timeout: 30_000 });
  // Other journeys' payouts may wait too (a wallet-paid order's delivery): this one is the send to EXTERNAL.
  const waiting = JSON.parse(ops(baseURL!, 'payouts', '--status', 'awaiting_approval', '--json')) as {
    id: string;
    purpose: string;
    destination: string | null;
  }[];
  const held = waiting.find((p) => p.purpose === 'send' && p.destination === EXTERNAL);
  expect(held?.purpose).toBe('send');
  ops(baseURL!, '--as', 'anna@ops.test', 'payout-approve', held!.id); // the review: it still waits
  ops(baseURL!, '--as', 'ben@ops.test', 'payout-approve', held!.id); // a second operator releases it
  await expect(page.getByText(wallet.send.paidOut)).toBeVisible({ timeout: 30_000 });
  const explorerLink = page.getByRole('link', { name: /^[0-9a-f]{64} / });
  await expect(explorerLink).toHaveAttribute('href', /^https:\/\/mempool\.space\/tx\/[0-9a-f]{64}$/);
  const sentHash = (await explorerLink.locator('code').textContent())!;
  await page.goto('/wallet/transactions/');
  // The send's row and its network fee's row, both from that one chain transaction (the table shows its start and end).
  const hashLinks = page
    .getByRole('table')
    .getByRole('link', { name: new RegExp(`^${sentHash.slice(0, 10)}…${sentHash.slice(-8)} `) });
  await expect(hashLinks).toHaveCount(2);
  for (const link of await hashLinks.all())
    await expect(link).toHaveAttribute('href', `https://mempool.space/tx/${sentHash}`);
  await bobPage.goto('/wallet/transactions/');
  await expect(bobPage.getByRole('row', { name: new RegExp(wallet.transactions.types.internal) })).toContainText(
    '+0.004 BTC',
  );
  await bobPage.goto('/wallet/balances/');
  await expect(bobPage.getByRole('row', { name: /^Bitcoin BTC/ })).toContainText('0.004 BTC');
  // The wallet pages with their tables and forms stay accessible (WCAG 2.1 AA).
  for (const url of ['/wallet/transactions/', '/wallet/receive/', '/wallet/send/']) {
    await bobPage.goto(url);
    await expect(bobPage.locator('main [data-island] :is(table, form, ul:not([role=listbox]))').first()).toBeVisible();
    const axe = await new AxeBuilder({ page: bobPage })
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
      .analyze();
    expect(axe.violations.map((v) => `${url} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
      [],
    );
  }
  await bobContext.close();
});
