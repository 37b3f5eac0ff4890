import AxeBuilder from '@axe-core/playwright';
import { test, expect, locale, ops, signUp, pickCurrency } from './fixtures';
import type { Page } from '@playwright/test';

/**
 * The faucet journey. playwright.config.ts runs the server with short rounds
 * (FAUCET_ROUND_SECONDS, 40 s: about 28 s of registrations, 8 s of result) so that a whole round
 * fits in a test.
 */
const faucet = locale('en', 'faucet');
const wallet = locale('en', 'wallet');

async function receiveAddress(page: Page, currency: string): Promise<string> {
  await page.goto('/wallet/receive/');
  await pickCurrency(page, wallet.receive.currency, currency);
  await page.getByRole('button', { name: wallet.receive.create }).click();
  const address = page.locator('.address-item code.address').first();
  await expect(address).toHaveText(/\S{20,}/);
  return (await address.textContent())!;
}

/** Seconds left on the page's countdown while registrations are open, else -1. */
async function openSecondsLeft(page: Page): Promise<number> {
  const state = await page.locator('[data-state]').getAttribute('data-state');
  if (state !== 'registrations_open') return -1;
  const [minutes, seconds] = ((await page.getByRole('timer').textContent()) ?? '0:00').split(':').map(Number);
  return minutes! * 60 + seconds!;
}

test('two players enter a round; when the winner is announced one sees congratulations, the other the lost message', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const alice = `faucet-alice-${stamp}@muntly.test`;
  const bob = `faucet-bob-${stamp}@muntly.test`;
  const bobContext = await browser.newContext();
  const bobPage = await bobContext.newPage();
  await signUp(page, 'Alice Faucet', alice);
  await signUp(bobPage, 'Bob Faucet', bob);
  for (const email of [alice, bob]) expect(ops(baseURL!, 'verify', email, 'bank')).toContain('verified');
  const aliceAddress = await receiveAddress(page, 'BTC');
  await receiveAddress(bobPage, 'DOGE');

  for (const p of [page, bobPage]) {
    await p.goto('/faucet/');
    await expect(p.getByRole('heading', { name: /^Round \d+/ })).toBeVisible();
    await expect(p.getByLabel(faucet.play.address)).toBeVisible();
  }
  // The styled picker, with the only address chosen (its currency in brackets, its logo beside).
  await expect(page.getByRole('combobox', { name: faucet.play.address })).toHaveValue(`${aliceAddress} (BTC)`);

  // Enter at the start of a registration window, so that both entries land in the same round.
  await expect.poll(() => openSecondsLeft(page), { timeout: 90_000, intervals: [250] }).toBeGreaterThanOrEqual(12);
  const roundHeading = (await page.getByRole('heading', { name: /^Round \d+/ }).textContent())!;
  const roundId = /Round (\d+)/.exec(roundHeading)![1];
  for (const p of [page, bobPage]) {
    await p.getByRole('button', { name: faucet.play.submit }).click();
    await expect(p.getByText(/You are in this round with/)).toBeVisible();
  }
  // The live stream brings the other player's entry to each page.
  await expect(page.getByText('2 players')).toBeVisible();
  await expect(page.getByText('(you)')).toHaveCount(1);

  for (const p of [page, bobPage]) {
    await expect(p.locator('[data-state]')).toHaveAttribute('data-state', 'winner_announced', { timeout: 60_000 });
    await expect(p.getByRole('heading', { name: new RegExp(`^Round ${roundId}`) })).toBeVisible();
  }
  const won = [page.getByText(/^Congratulations! You won/), bobPage.getByText(/^Congratulations! You won/)];
  const lost = [page.getByText(faucet.play.lost), bobPage.getByText(faucet.play.lost)];
  await expect(won[0].or(lost[0])).toBeVisible();
  await expect(won[1].or(lost[1])).toBeVisible();
  const aliceWon = await won[0].isVisible();
  await expect(aliceWon ? won[0] : lost[0]).toBeVisible();
  await expect(aliceWon ? lost[1] : won[1]).toBeVisible();

  // Both browsers checked the chain link (this round's published hash is the seed revealed
  // before it, or the chain's anchor), the block mixed in, and re-ran the draw: all agree.
  for (const p of [page, bobPage]) {
    await expect(p.getByTestId('fairness-link')).toContainText(
      /^✓ SHA-256 of this seed is the hash published at the start, and that hash is (the seed round \d+ revealed|the anchor of seed chain \d+): this seed was fixed before the round began\.$/,
    );
    await expect(p.getByTestId('fairness-result')).toContainText(/✓ The draw mixes in the hash of block \d+/);
    await expect(p.getByTestId('fairness-result')).toContainText('✓ Your browser repeated the draw over 2 tickets');
  }
  // The round is in the history, checked there too.
  await page.goto('/faucet/history/');
  await expect(page.getByTestId(`history-round-${roundId}`).getByTestId('history-check')).toHaveText(
    `✓ ${faucet.history.holds}`,
  );

  // The reward is in the winner's wallet, as a faucet transaction.
  const winnerPage = aliceWon ? page : bobPage;
  await winnerPage.goto('/wallet/transactions/');
  await expect(winnerPage.getByRole('row', { name: new RegExp(wallet.transactions.types.faucet) })).toBeVisible();
  expect(ops(baseURL!, 'ledger:verify')).not.toContain('FAIL');
  await bobContext.close();
});

test('a visitor sees the round in Ukrainian and is invited to log in; the page is accessible', async ({ page }) => {
  const uk = locale('uk', 'faucet');
  await page.goto('/uk/faucet/');
  await expect(page.getByRole('heading', { name: /^Раунд \d+/ })).toBeVisible();
  await expect(page.getByRole('link', { name: uk.play.login })).toHaveAttribute(
    'href',
    '/uk/login/?returnTo=%2Fuk%2Ffaucet%2F',
  );
  await expect(page.getByText(uk.fairness.seedHash)).toBeVisible();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
});
