import { languages, defaultLanguage } from './domain/languages';
import { siteUrl, gaTrackingId } from './src/config';
import { sitemapEntry, SITEMAP_EXCLUDES } from './src/i18n/sitemap';
import type { GatsbyConfig } from 'gatsby';

const config: GatsbyConfig = {
  siteMetadata: { title: 'Muntly', siteUrl },
  trailingSlash: 'always',
  graphqlTypegen: false,
  plugins: [
    {
      // Translations are Gatsby nodes so that each page queries only the namespaces it uses.
      resolve: 'gatsby-source-filesystem',
      options: { path: `${__dirname}/locales`, name: 'locale' },
    },
    {
      // News articles: content/news/<language>/<slug>.md, one file per article and language.
      resolve: 'gatsby-source-filesystem',
      options: { path: `${__dirname}/content/news`, name: 'news' },
    },
    'gatsby-transformer-remark',
    {
      resolve: 'gatsby-plugin-react-i18next',
      options: {
        localeJsonSourceName: 'locale',
        languages: [...languages],
        defaultLanguage,
        siteUrl,
        trailingSlash: 'always',
        // `redirect: true` rewrites the URL from the browser language during hydration, which
        // breaks hydration of the unprefixed English pages; languages are chosen by URL only.
        redirect: false,
        i18nextOptions: {
          interpolation: { escapeValue: false },
          returnNull: false,
          keySeparator: '.',
          nsSeparator: ':',
        },
      },
    },
    {
      // /sitemap-index.xml -> /sitemap-0.xml: every page in every language with its hreflang
      // alternates (robots.txt in static/ points to it).
      resolve: 'gatsby-plugin-sitemap',
      options: {
        excludes: SITEMAP_EXCLUDES,
        serialize: ({ path }: { path: string }) => sitemapEntry(path, siteUrl),
      },
    },
    {
      resolve: 'gatsby-plugin-google-gtag',
      options: {
        trackingIds: [gaTrackingId],
        gtagConfig: { anonymize_ip: true },
        pluginConfig: { head: true, respectDNT: false },
      },
    },
    {
      resolve: 'gatsby-plugin-manifest',
      options: {
        name: 'Muntly',
        short_name: 'Muntly',
        description: 'Buy, sell and swap crypto with SEPA transfers, keep it in a free wallet.',
        lang: 'en',
        start_url: '/',
        display: 'minimal-ui',
        theme_color: '#ffffff',
        background_color: '#000000',
        icon: 'src/images/icon.png',
      },
    },
    // Must come after the manifest plugin so the manifest is precached.
    {
      resolve: 'gatsby-plugin-offline',
      options: {
        // Offline, a page the worker has not kept shows the offline page in the visitor's
        // language (src/i18n/offline-page.ts; the file is written by gatsby-node.ts).
        appendScript: `${__dirname}/.cache/muntly-offline-sw.js`,
        workboxConfig: {
          // Keep HTML and page data fresh: the worker falls back to the cache only offline.
          runtimeCaching: [
            { urlPattern: /(\.js$|\.css$|static\/)/, handler: 'CacheFirst' },
            { urlPattern: /^https?:.*\/page-data\/.*\.json/, handler: 'NetworkFirst' },
            {
              urlPattern: /^https?:.*\.(png|jpg|jpeg|webp|svg|gif|ico|json|woff2?|webmanifest)$/,
              handler: 'StaleWhileRevalidate',
            },
          ],
        },
      },
    },
  ],
};

export default config;
