import { test, expect, languages, localizePath, routes, routeNames, pageTitle, common } from './fixtures';

const decode = (text: string) =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');

test.describe('every route in every language', () => {
  for (const language of languages) {
    test(`all pages answer 200 in ${language} with lang, title and alternates`, async ({ request }) => {
      for (const name of routeNames) {
        const url = localizePath(routes[name], language);
        const response = await request.get(url);
        expect(response.status(), url).toBe(200);
        const html = await response.text();
        // Assert on extracts: a failure must not print the whole document.
        expect(/<html lang="([^"]*)"/.exec(html)?.[1], url).toBe(language);
        const title = decode(/<title[^>]*>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
        expect(title, url).toBe(pageTitle(name, language));
        expect(/<meta name="description" content="([^"]*)"/.exec(html)?.[1].length, url).toBeGreaterThan(40);
        const alternates = [...html.matchAll(/<link rel="alternate" hrefLang="([^"]+)" href="([^"]+)"/g)].map((m) => [
          m[1],
          m[2],
        ]);
        expect(alternates, url).toEqual([
          ...languages.map((lng) => [lng, `http://localhost:8000${localizePath(routes[name], lng)}`]),
          ['x-default', `http://localhost:8000${routes[name]}`],
        ]);
        expect(/<meta property="og:locale" content="([^"]*)"/.exec(html)?.[1], url).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
        expect(html.match(/og:locale:alternate/g)?.length, url).toBe(5);
      }
    });
  }

  test('a page keeps its language and title once the browser has loaded it', async ({ page }) => {
    await page.goto('/ru/exchange/swap/');
    await expect(page).toHaveTitle(pageTitle('exchange_swap', 'ru'));
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(common('ru').pages.exchange_swap.title);
  });

  test("a page's data carries only the translation namespaces it uses", async ({ request }) => {
    const namespaces = async (dataPath: string) => {
      const data = await (await request.get(`/page-data/${dataPath}/page-data.json`)).json();
      return data.result.data.locales.edges
        .map((e: { node: { ns: string; language: string } }) => `${e.node.language}:${e.node.ns}`)
        .sort();
    };
    expect(await namespaces('index')).toEqual(['en:common', 'en:home']);
    expect(await namespaces('uk/fees')).toEqual(['uk:common', 'uk:currencies', 'uk:info']);
    expect(await namespaces('de/wallet/send')).toEqual([
      'de:auth',
      'de:common',
      'de:currencies',
      'de:errors',
      'de:wallet',
    ]);
  });

  test('serves the web app manifest the spec describes', async ({ request }) => {
    const manifest = await (await request.get('/manifest.webmanifest')).json();
    expect(manifest).toMatchObject({
      display: 'minimal-ui',
      start_url: '/',
      theme_color: '#ffffff',
      background_color: '#000000',
    });
    expect(manifest.icons.length).toBeGreaterThan(0);
    const icon = await request.get(manifest.icons[0].src);
    expect(icon.status()).toBe(200);
  });
});
