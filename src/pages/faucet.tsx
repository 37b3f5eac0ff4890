import * as React from 'react';
import { graphql, type PageProps } from 'gatsby';
import { useTranslation } from 'react-i18next';
import { Layout } from '../components/layout';
import { pageHead } from '../components/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import { IslandPlaceholder } from '../components/island';

export default function FaucetPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('faucet');
  return (
    <Layout page="faucet" pathname={location.pathname}>
      <p className="lead">{t('lead')}</p>
      <p>{t('fair')}</p>
      <p>{t('requirements')}</p>
      <IslandPlaceholder name="faucet" />
    </Layout>
  );
}

export const Head = pageHead('faucet');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "faucet"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
