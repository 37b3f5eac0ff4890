import {
  test,
  expect,
  languages,
  locale,
  localizePath,
  routes,
  routeNames,
  signUp,
  type RouteName,
  pickCurrency,
} from './fixtures';
import type { Page } from '@playwright/test';

/**
 * Every page fits every screen (issue 17): at the widths of small and common phones, a tablet and
 * a desktop, no page in any language scrolls sideways or squeezes text into a column a few
 * letters wide — logged out, logged in, and in the states that appear after an action.
 */
const WIDTHS = [320, 360, 390, 768, 1280];

/** Runs in the page: what scrolls sideways (and which elements stick out), and which text is squeezed. */
function measure(): string[] {
  const problems: string[] = [];
  const describe = (el: Element) => {
    const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `<${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}> "${text}"`;
  };
  const width = document.documentElement.clientWidth;
  const overflow = document.documentElement.scrollWidth - width;
  if (overflow > 0) {
    // The innermost elements, and the runs of text, that pass the right edge: the ones to fix.
    const out = [...document.body.querySelectorAll('*')].filter((el) => {
      const rect = el.getBoundingClientRect();
      return (
        rect.width > 0 &&
        rect.right > width + 0.5 &&
        ![...el.children].some((child) => child.getBoundingClientRect().right > width + 0.5)
      );
    });
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      range.selectNodeContents(node);
      if (range.getBoundingClientRect().right > width + 0.5 && node.parentElement && !out.includes(node.parentElement))
        out.push(node.parentElement);
    }
    problems.push(`scrolls ${overflow}px sideways: ${out.slice(0, 3).map(describe).join(', ')}`);
  }
  for (const el of document.body.querySelectorAll('*')) {
    const own = [...el.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => node.textContent)
      .join('')
      .trim();
    if (own.length < 8) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    const style = getComputedStyle(el);
    const fontSize = parseFloat(style.fontSize);
    const lineHeight = parseFloat(style.lineHeight) || fontSize * 1.3;
    const lines = Math.round(rect.height / lineHeight);
    // A column narrower than five letters that runs to three lines or more reads one syllable a line.
    if (rect.width < fontSize * 5 && lines >= 3)
      problems.push(`squeezed to ${Math.round(rect.width)} px over ${lines} lines: ${describe(el)}`);
  }
  // A button's label never breaks inside a word ("Anzeige|n"): more lines than words means one did.
  for (const button of document.body.querySelectorAll('button, .button')) {
    // Only the text one sees: a visually hidden name (the menu button's) is laid out a letter a line.
    const tops = new Set<number>();
    let words = 0;
    const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement!.getBoundingClientRect();
      if (parent.width <= 1 || parent.height <= 1 || !node.textContent!.trim()) continue;
      words += node.textContent!.trim().split(/\s+/).length;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
    }
    if (words && tops.size > words) problems.push(`a word broken over ${tops.size} lines: ${describe(button)}`);
  }
  return problems;
}

/** The problems of the page as it is now, at every width. */
async function problemsAtEveryWidth(page: Page, what: string): Promise<string[]> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    // Two frames: the resize has been laid out.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (const problem of await page.evaluate(measure)) problems.push(`${what} at ${width} px: ${problem}`);
  }
  return problems;
}

/** Pages only for logged-in users: a visitor is sent to log in. */
const PROTECTED: RouteName[] = [
  'wallet_balances',
  'wallet_receive',
  'wallet_send',
  'wallet_transactions',
  'wallet_proof',
  'wallet_security',
  'my_identity',
];
/** Pages that send the visitor elsewhere (the identity provider) rather than showing one of their own. */
const LEAVES: RouteName[] = ['login', 'register', 'logout'];

test.describe('every page fits every screen', () => {
  // Thirty pages at five widths: on a busy two-core machine this takes longer than one journey.
  test.describe.configure({ timeout: 300_000 });
  for (const language of languages) {
    test(`every route in ${language}, logged out, at ${WIDTHS.join(', ')} px`, async ({ page }) => {
      const problems: string[] = [];
      for (const name of routeNames.filter((n) => !LEAVES.includes(n))) {
        const url = localizePath(routes[name], language);
        await test.step(url, async () => {
          await page.goto(url);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          // A page for logged-in users sends the visitor to log in: the login page is measured then.
          if (PROTECTED.includes(name)) {
            await page.waitForURL((next) => !next.pathname.startsWith(url));
            await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          }
          problems.push(
            ...(await problemsAtEveryWidth(
              page,
              page.url() === new URL(url, page.url()).href ? url : `${url} -> ${new URL(page.url()).pathname}`,
            )),
          );
        });
      }
      expect(problems).toEqual([]);
    });
  }

  for (const language of ['en', 'de', 'ru'] as const) {
    test(`the logged-in pages in ${language}, and the states after an action`, async ({ page }) => {
      await signUp(page, `Layout ${language}`, `layout-${language}-${Date.now()}@example.com`);
      const problems: string[] = [];
      for (const name of routeNames.filter((n) => !LEAVES.includes(n))) {
        const url = localizePath(routes[name], language);
        await test.step(url, async () => {
          await page.goto(url);
          await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
          await expect(page.getByText(locale(language, 'auth').session.checking)).toHaveCount(0);
          problems.push(...(await problemsAtEveryWidth(page, `${url} (logged in)`)));
        });
      }
      // After an action: a placed buy's confirmation (payment details, GiroCode), then its status page.
      const exchange = locale(language, 'exchange');
      const buy = localizePath(routes.exchange_buy, language);
      await test.step(`${buy}: a buy placed, then followed`, async () => {
        await page.goto(buy);
        await pickCurrency(page, exchange.form.to.buy, 'BTC');
        await page.getByLabel(exchange.form.amount.replace('{{currency}}', 'EUR')).fill('50');
        const email = page.getByLabel(exchange.form.email, { exact: true });
        if (!(await email.inputValue())) await email.fill(`layout-${language}@example.com`);
        await page
          .getByLabel(exchange.form.address.replace('{{currency}}', 'BTC'))
          .fill('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
        await page.getByRole('button', { name: exchange.form.submit.buy }).click();
        await expect(page.getByRole('heading', { name: exchange.confirm.heading.buy })).toBeVisible();
        problems.push(...(await problemsAtEveryWidth(page, `${buy} (order placed)`)));
        await page.getByRole('link', { name: exchange.confirm.follow }).click();
        await expect(page.locator('.status-now')).toBeVisible();
        problems.push(...(await problemsAtEveryWidth(page, `${buy} (order status)`)));
      });
      // The balances with every currency shown (the zero balances are folded away at first).
      const balances = localizePath(routes.wallet_balances, language);
      await test.step(`${balances}: all currencies shown`, async () => {
        await page.goto(balances);
        await page.getByRole('button', { name: locale(language, 'wallet').balances.showAll }).click();
        await expect(page.getByRole('table')).toBeVisible();
        problems.push(...(await problemsAtEveryWidth(page, `${balances} (all currencies)`)));
      });
      // The wallet without a verified bank account, after one click asked for the verification.
      const receive = localizePath(routes.wallet_receive, language);
      await test.step(`${receive}: bank verification requested`, async () => {
        await page.goto(receive);
        await page.getByRole('button', { name: locale(language, 'wallet').bankRequired.request }).click();
        await expect(
          page
            .getByRole('status')
            .filter({ hasText: locale(language, 'wallet').bankRequired.requested.split('{{date}}')[0].trim() }),
        ).toBeVisible();
        problems.push(...(await problemsAtEveryWidth(page, `${receive} (bank verification requested)`)));
      });
      expect(problems).toEqual([]);
    });
  }
});
