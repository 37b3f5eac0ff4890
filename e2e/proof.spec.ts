import AxeBuilder from '@axe-core/playwright';
import { test, expect, locale, ops, signUp, pickCurrency } from './fixtures';

/**
 * Proof of solvency: a user with a balance finds, after the operator published a snapshot, that
 * their browser follows their own leaves (bound to their account id and nonce) to the published
 * root — in English, then in German — and anyone reads the snapshot on the public page /proof/,
 * whose files the API serves next to it.
 */
const wallet = locale('en', 'wallet');
const proof = locale('en', 'proof');
const de = locale('de', 'wallet');
const deProof = locale('de', 'proof');

const axeViolations = async (page: import('@playwright/test').Page) => {
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
};

test('a user checks in the browser that what Muntly owed them is counted, and anyone reads the snapshot on /proof/', async ({
  page,
  baseURL,
}) => {
  const email = `proof-${Date.now()}@muntly.test`;
  await signUp(page, 'Paula Proof', email);
  expect(ops(baseURL!, 'verify', email, 'bank')).toContain('verified');
  await page.goto('/wallet/receive/');
  await pickCurrency(page, wallet.receive.currency, 'BTC');
  await page.getByRole('button', { name: wallet.receive.create }).click();
  const address = (await page.locator('.address-item code.address').first().textContent())!;
  expect(ops(baseURL!, 'chain-deposit', 'BTC', address, '0.0421')).toContain('Credited 0.04210000 BTC');
  // And ether, whose 18 decimals make the longest amounts a phone has to show.
  await pickCurrency(page, wallet.receive.currency, 'ETH');
  await page.getByRole('button', { name: wallet.receive.create }).click();
  const ethAddress = (await page.locator('.address-item code.address', { hasText: /^0x/ }).first().textContent())!;
  expect(ops(baseURL!, 'chain-deposit', 'ETH', ethAddress, '0.026546440658923227')).toContain(
    'Credited 0.026546440658923227 ETH',
  );
  const published = ops(baseURL!, 'liabilities:publish');
  expect(published).toMatch(/^Published snapshot \d+ of /);
  const snapshot = /Published snapshot (\d+)/.exec(published)![1];

  await page.goto('/wallet/proof/');
  await expect(page.getByRole('heading', { name: new RegExp(`^Snapshot ${snapshot} of `) })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'BTC: Muntly owed you 0.0421 BTC' })).toBeVisible();
  await expect(page.getByTestId('proof-result-BTC')).toHaveText(
    `✓ ${wallet.proof.result.ok.replace('{{currency}}', 'BTC')}`,
    { timeout: 30_000 },
  );
  // Each leaf's path, step by step, opens on demand: 12 levels at least (4,096 leaves, padded).
  await page
    .getByText(/Path of the leaf at position/)
    .first()
    .click();
  await expect(page.locator('.proof-path[open] tbody tr')).toHaveCount(12);
  await expect(page.getByRole('heading', { name: wallet.proof.reserves.heading })).toBeVisible();
  // The total owed is everyone's: other journeys of this run hold BTC too. The page shows what the operator's command printed.
  const owed = /BTC\s+owed ([\d.]+)/.exec(published)![1]!;
  await expect(page.locator('.solvency-table tr[data-currency="BTC"]')).toContainText(`${Number(owed)} BTC`);
  await expect(page.getByRole('heading', { name: proof.explain.heading })).toBeVisible();
  // "My proof" downloads as a file with the user's own account id, nonce and leaves.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: wallet.proof.downloadMine }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`muntly-proof-${snapshot}-mine.json`);
  expect(await axeViolations(page)).toEqual([]);

  // The public page, from the wallet's link: the snapshot, its files, how to check it.
  await page.getByRole('link', { name: wallet.proof.publicPage }).click();
  await expect(page).toHaveURL('/proof/');
  await expect(page.getByRole('heading', { name: new RegExp(`^Latest snapshot: number ${snapshot}$`) })).toBeVisible();
  await expect(page.locator('.solvency-table tr[data-currency="BTC"]')).toContainText('BTC');
  // Address by address: locally no house address holds BTC yet, the user's deposit address is counted, not listed.
  const btc = page.getByRole('region', { name: 'BTC', exact: true });
  // (The simulated chain's height depends on what other journeys of the run mined: any number.)
  const [before, after] = proof.public.readAt.split('{{height}}') as [string, string];
  await expect(btc).toContainText(
    new RegExp(`${before.replace(/[.*+?^$()[\]{}|\\]/g, '\\$&')}\\d+${after.replace(/[.*+?^$()[\]{}|\\]/g, '\\$&')}`),
  );
  await expect(btc).toContainText(/\(counted, not listed\)/);
  await expect(btc).not.toContainText(address);
  await expect(page.getByText('npm run verify:liabilities --')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  // The files are served at the paths the page links, next to the page itself.
  const file = await page.request.get(`/proof/${snapshot}.json`);
  expect(file.headers()['content-type']).toContain('application/json');
  expect(await file.json()).toMatchObject({ format: 'muntly-liabilities-2', snapshotId: Number(snapshot) });
  expect((await page.request.get('/proof/latest.json')).ok()).toBe(true);
  expect((await page.request.get(`/proof/${snapshot}/control.json`)).ok()).toBe(true);
  const html = await page.request.get('/proof/');
  expect(html.headers()['content-type']).toContain('text/html');

  // In German: the wallet's check and the public page.
  await page.goto('/de/wallet/proof/');
  await expect(page.getByRole('heading', { name: /^BTC: Muntly schuldete Ihnen 0,0421 BTC$/ })).toBeVisible();
  await expect(page.getByTestId('proof-result-BTC')).toHaveText(
    `✓ ${de.proof.result.ok.replace('{{currency}}', 'BTC')}`,
    { timeout: 30_000 },
  );
  await expect(page.getByRole('heading', { name: de.proof.reserves.heading })).toBeVisible();
  await page.goto('/de/proof/');
  await expect(page.getByRole('heading', { name: deProof.explain.heading })).toBeVisible();
  await expect(
    page.getByRole('heading', { name: new RegExp(`^Neueste Momentaufnahme: Nummer ${snapshot}$`) }),
  ).toBeVisible();
  await expect(page.locator('.solvency-table thead')).toContainText(deProof.table.difference);

  // On a phone nothing scrolls sideways: the table becomes one card per currency, long values break.
  await page.setViewportSize({ width: 360, height: 800 });
  for (const [path, language] of [
    ['/proof/', 'en'],
    ['/ru/proof/', 'ru'],
  ] as const) {
    await page.goto(path);
    await expect(
      page.getByRole('heading', { name: locale(language, 'proof').public.snapshot.replace('{{id}}', snapshot) }),
    ).toBeVisible();
    await expect(page.locator('.solvency-table tr[data-currency="BTC"]')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  }
  await page.goto('/ru/wallet/proof/');
  await expect(page.getByTestId('proof-result-BTC')).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});
