import * as React from 'react';
import { languages, languageMeta, localizePath, defaultLanguage } from '#domain/languages';
import { siteUrl } from '../config';
import { routes, type RouteName } from '../i18n/routes';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import type { HeadProps } from 'gatsby';

type PageKey = RouteName | 'notFound';
type CommonPages = Record<PageKey, { title: string; description: string }>;

/**
 * The document head of every page: <html lang>, localized title and description, hreflang
 * alternates for all languages plus x-default, Open Graph locales and the canonical URL.
 * Gatsby renders Head outside the i18next provider, so it reads the page's own `common`
 * namespace from the page data.
 */
export function Seo({ page, data, pageContext }: HeadProps<LocalesData, I18nPageContext> & { page: PageKey }) {
  const language = pageContext.language ?? defaultLanguage;
  const commonNode = data.locales.edges.find(({ node }) => node.ns === 'common')?.node;
  const pages = (commonNode ? JSON.parse(commonNode.data).pages : {}) as CommonPages;
  const { title, description } = pages[page] ?? { title: 'Muntly', description: '' };
  const fullTitle = page === 'home' ? title : `${title} | Muntly`;
  const path = page === 'notFound' ? '/404/' : routes[page];
  const url = (lng: (typeof languages)[number]) => `${siteUrl}${localizePath(path, lng)}`;

  return (
    <>
      <html lang={language} />
      <title>{fullTitle}</title>
      <meta name="description" content={description} />
      {page === 'notFound' ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={url(language)} />}
      {languages.map((lng) => (
        <link key={lng} rel="alternate" hrefLang={lng} href={url(lng)} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={url(defaultLanguage)} />
      <meta property="og:title" content={fullTitle} />
      <meta property="og:description" content={description} />
      <meta property="og:type" content="website" />
      <meta property="og:url" content={url(language)} />
      <meta property="og:locale" content={languageMeta[language].ogLocale} />
      {languages
        .filter((lng) => lng !== language)
        .map((lng) => (
          <meta key={lng} property="og:locale:alternate" content={languageMeta[lng].ogLocale} />
        ))}
    </>
  );
}
