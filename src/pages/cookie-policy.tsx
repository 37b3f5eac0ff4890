import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CookieChoiceReset } from '../app/cookie-choice-reset';
import { Layout } from '../app/layout';
import { LegalDocument } from '../features/content/components/legal-document';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function CookiePolicyPage({ location, pageContext }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('legal');
  return (
    <Layout page="cookie_policy" pathname={location.pathname}>
      <LegalDocument doc="cookie_policy" figures={pageContext.figures}>
        <CookieChoiceReset label={t('cookie_policy.reset')} done={t('cookie_policy.resetDone')} />
      </LegalDocument>
    </Layout>
  );
}

export const Head = pageHead('cookie_policy');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "legal"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
