import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { RoundHistory } from '../../features/faucet/components/round-history';
import { IslandPlaceholder } from '../../ui/island';
import { pageHead } from '../../ui/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

/** Every past faucet round, a page at a time, each checked in the browser; the rounds as a file to download. */
export default function FaucetHistoryPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('faucet');
  return (
    <Layout page="faucet_history" pathname={location.pathname}>
      <p className="lead">{t('history.lead')}</p>
      <IslandPlaceholder name="faucet-history">
        <RoundHistory />
      </IslandPlaceholder>
    </Layout>
  );
}

export const Head = pageHead('faucet_history');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "faucet", "errors"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
