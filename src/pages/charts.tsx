import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../app/layout';
import { RateChart } from '../features/content/components/rate-chart';
import { usePageLanguage } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function ChartsPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  const language = usePageLanguage();
  return (
    <Layout page="charts" pathname={location.pathname}>
      <p className="lead">{t('charts.lead')}</p>
      <RateChart language={language} />
    </Layout>
  );
}

export const Head = pageHead('charts');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info", "currencies"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
