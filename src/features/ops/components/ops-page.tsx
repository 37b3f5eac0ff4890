import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { defaultLanguage } from '#domain/languages';
import { Layout } from '../../../app/layout';
import { OpsConsole } from './console';
import type { OpsRouteName } from '../../../i18n/ops-routes';
import type { I18nPageContext, LocalesData } from '../../../i18n/page-types';
import type { HeadProps } from 'gatsby';

/** A page of the operator console: the site's layout, the page's title, the console behind the login. */
export function OpsPage({ section, pathname }: { section: OpsRouteName; pathname: string }) {
  const { t } = useTranslation('ops');
  return (
    <Layout pathname={pathname} heading={t(`pages.${section}.title`)}>
      <OpsConsole section={section} />
    </Layout>
  );
}

/**
 * The head of a console page: its language and title, and `noindex` — the console is no page for
 * search engines (nor in the sitemap); it has no canonical or language alternates for the same reason.
 */
export function opsHead(section: OpsRouteName) {
  return function Head({ data, pageContext }: HeadProps<LocalesData, I18nPageContext>) {
    const language = pageContext.language ?? defaultLanguage;
    const node = data.locales.edges.find(({ node: n }) => n.ns === 'ops')?.node;
    const pages = (node ? JSON.parse(node.data).pages : {}) as Record<OpsRouteName, { title: string }>;
    return (
      <>
        <html lang={language} />
        <title>{`${pages[section]?.title ?? 'Muntly'} | Muntly`}</title>
        <meta name="robots" content="noindex, nofollow" />
      </>
    );
  };
}
