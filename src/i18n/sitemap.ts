import { defaultLanguage, languages, localizePath, splitLanguage } from '../../domain/languages';

/**
 * Sitemap entries (gatsby-plugin-sitemap's `serialize`): one <url> per page and language, each
 * with xhtml:link alternates for all six languages plus x-default, the same set as the page's
 * own hreflang links (ui/seo.tsx).
 */
export type SitemapEntry = {
  url: string;
  changefreq: string;
  priority: number;
  links: { lang: string; url: string }[];
};

/** Pages that are not worth a search result: the not-found pages, logging out and the operator console. */
export const SITEMAP_EXCLUDES = [
  '/404/',
  '/404.html',
  '/*/404/',
  '/*/404.html',
  '/logout/',
  '/*/logout/',
  '/offline-plugin-app-shell-fallback/',
  '/ops/',
  '/ops/*/',
  '/*/ops/',
  '/*/ops/*/',
];

export function sitemapEntry(pagePath: string, siteUrl: string): SitemapEntry {
  const { language, path } = splitLanguage(pagePath);
  const absolute = (lng: (typeof languages)[number]) => `${siteUrl}${localizePath(path, lng)}`;
  return {
    url: absolute(language),
    changefreq: path === '/' || path === '/news/' || path === '/rates/' ? 'daily' : 'weekly',
    priority: path === '/' ? 1 : 0.7,
    links: [
      ...languages.map((lng) => ({ lang: lng, url: absolute(lng) })),
      { lang: 'x-default', url: absolute(defaultLanguage) },
    ],
  };
}

/** robots.txt as built: the sitemap line needs the site's absolute origin. */
export function robotsTxt(template: string, siteUrl: string): string {
  return template.replace(/__SITE_URL__/g, siteUrl);
}
