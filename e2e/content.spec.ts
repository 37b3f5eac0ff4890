import AxeBuilder from '@axe-core/playwright';
import { test, expect, common, locale, pickCurrency } from './fixtures';
import type { Page } from '@playwright/test';

/**
 * The information and legal pages: real content in the page language, live data from the API
 * (rates, history, status), the support form landing in the outbox, news, and the sitemap.
 */

/** The server's BUY_SELL_ENABLED as the pages read it at run time: the e2e server has it on; off is answered here. */
async function switchBuySell(page: Page, enabled: boolean) {
  await page.route('**/api/exchange/config', (route) =>
    route.fulfill({ json: { buySellEnabled: enabled, bank: null }, headers: { 'cache-control': 'no-store' } }),
  );
}

// The cookie banner is fixed to the bottom of the viewport; these journeys are about the pages.
test.beforeEach(async ({ context }) => {
  await context.addInitScript(() => window.localStorage.setItem('muntly-analytics-consent', 'denied'));
});

const h2s = (page: Page) => page.locator('main h2').allInnerTexts();

test.describe('legal pages', () => {
  for (const language of ['en', 'uk'] as const) {
    test(`the four legal texts in ${language}: contents, sections and the rules the product applies`, async ({
      page,
    }) => {
      const legal = locale(language, 'legal');
      const prefix = language === 'en' ? '' : `/${language}`;
      for (const doc of ['aml_policy', 'cookie_policy', 'privacy_policy', 'terms_and_conditions'] as const) {
        await page.goto(`${prefix}/${doc.replace(/_/g, '-')}/`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(common(language).pages[doc].title);
        // The e2e server takes buys and sells: the section saying they are paused is not shown.
        const headings = Object.entries(legal[doc].sections as Record<string, { heading: string }>)
          .filter(([id]) => id !== 'availability')
          .map(([, s]) => s.heading);
        expect(headings.length).toBeGreaterThanOrEqual(5);
        await expect(page.getByRole('navigation', { name: legal.contents })).toBeVisible();
        expect(await h2s(page)).toEqual([legal.contents, ...headings]);
      }
    });
  }

  test('the AML policy keeps records five years and fills in the real thresholds', async ({ page }) => {
    await page.goto('/aml-policy/');
    await expect(page.locator('#records')).toContainText('at least five years');
    await expect(page.locator('#due_diligence')).toContainText('more than €1,000.00 within seven days');
    await expect(page.locator('#due_diligence')).toContainText('more than €3,000.00 within seven days');
    await expect(page.locator('#due_diligence')).toContainText('limited to €100.00; any single order to €30,000.00');
    await page.getByRole('link', { name: 'Records we keep' }).click();
    await expect(page).toHaveURL(/#records$/);
  });

  test('the terms announce changes 30 days ahead and state the fees in the page language', async ({ page }) => {
    await page.goto('/de/terms-and-conditions/');
    await expect(page.locator('#changes')).toContainText('mindestens 30 Tage');
    await expect(page.locator('#fees')).toContainText(/1,50\s%.*mindestens 2,00\s€.*0,50\s%/);
  });

  test('the cookie policy lets the visitor reset the analytics choice', async ({ page }) => {
    await page.goto('/cookie-policy/');
    const banner = page.getByRole('region', { name: common('en').cookieBanner.label });
    // A click before the page has hydrated does nothing yet: click until the banner answers.
    await expect(async () => {
      await page.getByRole('button', { name: 'Change my cookie choice' }).click();
      await expect(banner).toBeVisible({ timeout: 1000 });
    }).toPass();
    expect(await page.evaluate(() => window.localStorage.getItem('muntly-analytics-consent'))).toBeNull();
  });
});

test('the fees page shows the fees, levels, network fees and limits from the rules', async ({ page }) => {
  await page.goto('/uk/fees/');
  const buy = page.locator('tr[data-order-type="buy"]');
  await expect(buy).toContainText(/1,50\s?%/);
  await expect(buy).toContainText(/2,00\s(EUR|€)/);
  await expect(page.locator('tr[data-order-type="swap"]')).toContainText(/0,50\s?%/);
  await expect(page.locator('table.fee-levels tbody tr')).toHaveCount(26);
  await expect(page.locator('table.fee-levels tr.in-use')).toHaveCount(3);
  await expect(page.locator('tr[data-currency="BTC"]')).toContainText('0,00002 BTC');
  await expect(page.locator('main')).toContainText(/30\s000,00\s(EUR|€)/);
});

test('the rates page fills its table from the API and marks the wallet support', async ({ page }) => {
  const rates = page.waitForResponse((r) => r.url().endsWith('/api/rates') && r.status() === 200);
  await page.goto('/rates/');
  const body = await (await rates).json();
  const btc = page.locator('tr[data-currency="BTC"]');
  await expect(btc.locator('td').first()).toHaveText(/^€[\d,]+\.\d{2}$/);
  expect(Number(body.rates.BTC)).toBeGreaterThan(0);
  await expect(btc).toContainText('Send and receive');
  await expect(page.locator('tr[data-currency="SHIB"] td').first()).toHaveText(/^€0\.0000\d{4}$/);
  await expect(page.locator('tr[data-currency="SHIB"]')).toContainText('Keep in the wallet only');
  await expect(page.getByRole('heading', { name: '24 currencies in euros' })).toBeVisible();
});

test('the charts page draws the history and loads the chart library only there', async ({ page }) => {
  const scripts = (target: Page) => {
    const urls: string[] = [];
    target.on('response', (r) => r.url().endsWith('.js') && urls.push(r.url()));
    return urls;
  };
  const chartScripts = scripts(page);
  await page.goto('/ru/charts/');
  await expect(page.getByRole('heading', { level: 2, name: /Биткоин \(BTC\) в евро за 30 дней/ })).toBeVisible();
  await expect(page.locator('.chart-box canvas').first()).toBeVisible();
  await expect(page.getByTestId('chart-last')).toHaveText(/€|EUR/);
  // The currency is chosen in the styled, searchable picker, its logo beside it and beside the heading.
  await expect(page.locator('#chart-heading img')).toHaveAttribute('src', /\/currency-icons\/[\d.]+\/btc\.svg$/);
  await pickCurrency(page, 'Валюта', 'ETH');
  await expect(page.locator('#chart-currency').locator('..').locator('img')).toHaveAttribute('src', /eth\.svg$/);
  await page.getByLabel('Период').selectOption('7');
  await expect(page.getByRole('heading', { level: 2, name: /Эфириум \(ETH\) в евро за 7 дней/ })).toBeVisible();

  const withChartCode = async (urls: string[]) => {
    const found: string[] = [];
    for (const url of new Set(urls))
      if ((await (await page.request.get(url)).text()).includes('attributionLogo')) found.push(url);
    return found;
  };
  expect((await withChartCode(chartScripts)).length).toBeGreaterThan(0);
  const homeScripts = scripts(page);
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  expect(await withChartCode(homeScripts)).toEqual([]);
});

test('the status page reports the API, the database and both workers as working', async ({ page }) => {
  await page.goto('/fr/status/');
  await expect(page.getByRole('main').getByRole('status')).toHaveText(locale('fr', 'info').status.allOk);
  for (const component of ['website', 'api', 'database', 'orders', 'payouts']) {
    await expect(page.locator(`li[data-component="${component}"]`)).toContainText('Opérationnel');
  }
});

test.describe('support and contact form', () => {
  test('checks the fields in the browser, then delivers the message and confirms it in Ukrainian', async ({
    page,
    context,
  }) => {
    const support = locale('uk', 'support');
    const errors = locale('uk', 'errors');
    await page.goto('/uk/support/');
    await page.getByRole('button', { name: support.form.submit }).click();
    await expect(page.getByText(errors.required).first()).toBeVisible();
    await expect(page.getByLabel(support.form.name)).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel(support.form.name).fill('Олена Коваль');
    await page.getByLabel(support.form.email).fill('olena@example.com');
    await page.getByLabel(support.form.topic).selectOption('order');
    await page.getByLabel(support.form.orderReference).fill('abcd-efgh');
    await page.getByLabel(support.form.message).fill('Коротко');
    await page.getByRole('button', { name: support.form.submit }).click();
    await expect(page.getByText(errors.invalid_reference)).toBeVisible();
    await expect(page.getByText(errors.too_short)).toBeVisible();

    await page.getByLabel(support.form.orderReference).fill('abcd efgh ijkl mnop');
    await page
      .getByLabel(support.form.message)
      .fill('Я оплатив заявку вчора, але вона досі має статус «нова». Перевірте, будь ласка.');
    await page.getByRole('button', { name: support.form.submit }).click();
    const confirmation = page.getByRole('main').getByRole('status');
    await expect(confirmation).toContainText(support.form.successHeading);
    const ticket = /[A-Z]{4}-[A-Z]{4}/.exec(await confirmation.innerText())![0];
    await expect(confirmation).toContainText('olena@example.com');

    const mailbox = await context.newPage();
    await mailbox.goto('/dev/mailbox?to=olena@example.com');
    await expect(mailbox.locator('h2').first()).toHaveText(`Ми отримали ваше повідомлення (${ticket})`);
    await mailbox.goto('/dev/mailbox?to=support@muntly.example');
    // Other journeys write to the support mailbox at the same time: find this ticket's message.
    await expect(mailbox.locator('pre', { hasText: `Ticket: ${ticket}` })).toContainText(
      'Order reference: ABCD-EFGH-IJKL-MNOP',
    );
    await mailbox.close();
  });

  test('the contact page lists the support mailbox (not the identity mailbox: issue 35) and sends the form in German', async ({
    page,
  }) => {
    const support = locale('de', 'support');
    await page.goto('/de/contact/');
    await expect(page.getByRole('link', { name: 'support@muntly.example' })).toHaveAttribute(
      'href',
      'mailto:support@muntly.example',
    );
    await expect(page.getByText('identity@muntly.example')).toHaveCount(0);
    await page.getByLabel(support.form.name).fill('Jonas Weber');
    await page.getByLabel(support.form.email).fill('jonas@example.com');
    await page.getByLabel(support.form.topic).selectOption('identity');
    await page.getByLabel(support.form.message).fill('Bitte schalten Sie für mein Konto die Adressprüfung frei.');
    await page.getByRole('button', { name: support.form.submit }).click();
    await expect(page.getByRole('main').getByRole('status')).toContainText('Ihre Ticketnummer lautet');
  });
});

test('the news page lists the articles and each one is readable, in Russian with the right plural', async ({
  page,
}) => {
  await switchBuySell(page, false);
  await page.goto('/ru/news/');
  await expect(page.getByRole('heading', { name: '3 статьи' })).toBeVisible();
  await expect(page.locator('article')).toHaveCount(3);
  await page.getByRole('link', { name: 'Покупка и продажа приостановлены с июня 2022 года' }).click();
  await expect(page).toHaveURL(/#buying-and-selling-paused$/);
  const article = page.locator('article#buying-and-selling-paused');
  await expect(article.getByRole('heading', { level: 3, name: 'Что по-прежнему работает' })).toBeVisible();
  await expect(article.locator('time')).toHaveText('15 июня 2022 г.');
});

test('"buying and selling are paused" shows in the terms, the support answers and the news exactly while the server says so', async ({
  page,
}) => {
  // The e2e server takes buys and sells (BUY_SELL_ENABLED is on): no page says otherwise.
  await page.goto('/de/terms-and-conditions/');
  await expect(page.locator('#changes')).toBeVisible();
  await expect(page.locator('#availability')).toHaveCount(0);
  await expect(page.getByRole('main')).not.toContainText('2022');
  await page.goto('/de/support/');
  await expect(page.getByText(/darf höchstens 100,00\s€ betragen/)).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText('2022');
  await page.goto('/de/news/');
  await expect(page.getByRole('heading', { name: '2 Beiträge' })).toBeVisible();
  await expect(page.getByRole('main')).not.toContainText('2022');
  // The same build, the server's switch off: each says it.
  await switchBuySell(page, false);
  await page.goto('/de/terms-and-conditions/');
  await expect(page.locator('#availability')).toContainText('seit Juni 2022');
  await page.goto('/de/support/');
  await expect(
    page.getByText(
      /darf höchstens 100,00\s€ betragen.*Außerdem sind Kauf und Verkauf gegen Euro seit Juni 2022 deaktiviert\./,
    ),
  ).toBeVisible();
  await page.goto('/de/news/');
  await expect(page.getByRole('heading', { name: '3 Beiträge' })).toBeVisible();
});

test('the imprint names the operator, marked as sample in local mode; every footer links to it; a configured operator replaces the sample', async ({
  page,
}) => {
  const de = common('de').operator;
  await page.goto('/de/fees/');
  const footer = page.getByRole('contentinfo');
  // The sample operator's legal name is one in every language, as the payee name a transfer carries.
  await expect(footer).toContainText('Sample Operator Ltd');
  await expect(footer).toContainText(de.sampleBadge);
  await footer.getByRole('link', { name: 'Impressum' }).click();
  await expect(page).toHaveURL(/\/de\/imprint\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Impressum');
  await expect(page.getByRole('note')).toContainText(locale('de', 'legal').imprint.sampleNotice);
  await expect(page.locator('dl.imprint-data')).toContainText(de.sample.address);
  // The same build, an operator configured on the server: its answer replaces the sample everywhere.
  await page.route('**/api/operator', (route) =>
    route.fulfill({
      json: { sample: false, name: 'Muntly GmbH', address: 'Chausseestraße 1, 10115 Berlin', email: 'legal@muntly.eu' },
      headers: { 'cache-control': 'no-store' },
    }),
  );
  await page.goto('/de/privacy-policy/');
  await expect(page.locator('#controller')).toContainText('Muntly GmbH, Chausseestraße 1, 10115 Berlin');
  await expect(page.getByRole('contentinfo')).toContainText('Muntly wird betrieben von Muntly GmbH');
  await expect(page.getByRole('contentinfo')).not.toContainText(de.sampleBadge);
});

test('the crypto-locker page says not to pay and links to No More Ransom', async ({ page }) => {
  await page.goto('/nl/crypto-locker/');
  await expect(page.locator('#pay')).toContainText('Betaal geen losgeld');
  await expect(page.getByRole('link', { name: /No More Ransom/ })).toHaveAttribute(
    'href',
    'https://www.nomoreransom.org/',
  );
});

test('serves robots.txt and the sitemap with hreflang alternates, revalidated on each load', async ({ request }) => {
  const robots = await request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
  expect(await robots.text()).toMatch(/^Sitemap: https?:\/\/[^/]+\/sitemap-index\.xml$/m);
  const index = await request.get('/sitemap-index.xml');
  expect(index.status()).toBe(200);
  expect(index.headers()['cache-control']).toBe('public, max-age=0, must-revalidate');
  const sitemap = await (await request.get('/sitemap-0.xml')).text();
  expect(sitemap).toContain('<loc>http://localhost:8000/uk/privacy-policy/</loc>');
  expect(sitemap).toContain('<loc>http://localhost:8000/de/imprint/</loc>');
  expect(sitemap).toContain(
    '<xhtml:link rel="alternate" hreflang="de" href="http://localhost:8000/de/privacy-policy/"/>',
  );
  expect(sitemap).not.toContain('/404');
  expect(sitemap).not.toContain('/logout/');
});

test.describe('accessibility of the information and legal pages (WCAG 2.1 AA)', () => {
  const pages = [
    'aml-policy',
    'cookie-policy',
    'privacy-policy',
    'terms-and-conditions',
    'imprint',
    'fees',
    'rates',
    'charts',
    'status',
    'support',
    'contact',
    'news',
    'forum',
    'chatbots',
    'crypto-locker',
  ];
  // One test per page: an axe pass takes several seconds on a loaded CI machine, and fifteen of
  // them in one test ran past its time budget.
  for (const language of ['en', 'uk']) {
    for (const name of pages) {
      const url = `${language === 'en' ? '' : `/${language}`}/${name}/`;
      test(`${url} has no axe violations`, async ({ page }) => {
        await page.goto(url);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await page.waitForLoadState('networkidle');
        const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
          [],
        );
      });
    }
  }
});
