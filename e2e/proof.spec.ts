import AxeBuilder from '@axe-core/playwright';
import { test, expect, locale, ops, signUp, pickCurrency } from './fixtures';

/**
 * Proof of liabilities: a user with a balance finds, after the operator published a snapshot,
 * that their browser re-computes their inclusion step by step — in English, then in German.
 */
const wallet = locale('en', 'wallet');
const de = locale('de', 'wallet');

test('a user checks in the browser that their balance is counted in what Muntly owes, in English and in German', async ({ page, baseURL }) => {
  const email = `proof-${Date.now()}@muntly.test`;
  await signUp(page, 'Paula Proof', email);
  expect(ops(baseURL!, 'verify', email, 'bank')).toContain('verified');
  await page.goto('/wallet/receive/');
  await pickCurrency(page, wallet.receive.currency, 'BTC');
  await page.getByRole('button', { name: wallet.receive.create }).click();
  const address = (await page.locator('.address-item code.address').first().textContent())!;
  expect(ops(baseURL!, 'chain-deposit', 'BTC', address, '0.0421')).toContain('Credited 0.04210000 BTC');
  const published = ops(baseURL!, 'liabilities:publish');
  expect(published).toMatch(/^Published snapshot \d+ of /);
  const snapshot = /Published snapshot (\d+)/.exec(published)![1];

  await page.goto('/wallet/proof/');
  await expect(page.getByRole('heading', { name: new RegExp(`^Snapshot ${snapshot} of `) })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'BTC: your balance was 0.0421 BTC' })).toBeVisible();
  await expect(page.getByTestId('proof-result-BTC')).toHaveText(`✓ ${wallet.proof.result.ok.replace('{{currency}}', 'BTC')}`, { timeout: 30_000 });
  // Each leaf's path, step by step, opens on demand.
  await page
    .getByText(/^Path of the leaf at position/)
    .first()
    .click();
  await expect(page.locator('.proof-path[open] tbody tr').first()).toBeVisible();
  await expect(page.getByRole('heading', { name: wallet.proof.reserves.heading })).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await page.goto('/de/wallet/proof/');
  await expect(page.getByRole('heading', { name: /^BTC: Ihr Guthaben betrug 0,0421 BTC$/ })).toBeVisible();
  await expect(page.getByTestId('proof-result-BTC')).toHaveText(`✓ ${de.proof.result.ok.replace('{{currency}}', 'BTC')}`, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: de.proof.reserves.heading })).toBeVisible();
});
