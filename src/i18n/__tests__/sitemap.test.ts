import { sitemapEntry, robotsTxt, SITEMAP_EXCLUDES } from '../sitemap';

describe('sitemap', () => {
  it('gives every page its six language versions and x-default as alternates', () => {
    const entry = sitemapEntry('/uk/fees/', 'https://muntly.example');
    expect(entry.url).toBe('https://muntly.example/uk/fees/');
    expect(entry.links).toEqual([
      { lang: 'en', url: 'https://muntly.example/fees/' },
      { lang: 'de', url: 'https://muntly.example/de/fees/' },
      { lang: 'fr', url: 'https://muntly.example/fr/fees/' },
      { lang: 'nl', url: 'https://muntly.example/nl/fees/' },
      { lang: 'ru', url: 'https://muntly.example/ru/fees/' },
      { lang: 'uk', url: 'https://muntly.example/uk/fees/' },
      { lang: 'x-default', url: 'https://muntly.example/fees/' },
    ]);
    expect(sitemapEntry('/', 'https://muntly.example')).toMatchObject({ url: 'https://muntly.example/', priority: 1 });
  });

  it('leaves out the not-found pages and logging out', () => {
    expect(SITEMAP_EXCLUDES).toEqual(
      expect.arrayContaining([
        '/404/',
        '/*/404/',
        '/logout/',
        '/*/logout/',
        '/ops/',
        '/ops/*/',
        '/*/ops/',
        '/*/ops/*/',
      ]),
    );
  });

  it('names the sitemap in robots.txt by its absolute URL', () => {
    expect(robotsTxt('Sitemap: __SITE_URL__/sitemap-index.xml\n', 'https://muntly.example')).toBe(
      'Sitemap: https://muntly.example/sitemap-index.xml\n',
    );
  });
});
