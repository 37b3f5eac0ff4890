import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { FeeSchedule } from '../features/content/components/fee-schedule';
import { usePageLanguage } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function FeesPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  const language = usePageLanguage();
  return (
    <Layout page="fees" pathname={location.pathname}>
      <p className="lead">{t('fees.lead')}</p>
      <FeeSchedule language={language} />
    </Layout>
  );
}

export const Head = pageHead('fees');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info", "currencies"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
