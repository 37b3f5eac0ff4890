import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CookieChoiceReset } from '../components/cookie-choice-reset';
import { Layout } from '../components/layout';
import { pageHead } from '../components/page-head';
import { LegalDocument } from '../features/content/components/legal-document';
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
