import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../components/layout';
import { PageCards } from '../../components/page-cards';
import { pageHead } from '../../components/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function WalletPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('wallet');
  return (
    <Layout page="wallet" pathname={location.pathname}>
      <p className="lead">{t('landing.lead')}</p>
      <PageCards
        cards={[
          ['wallet_balances', t('landing.balances')],
          ['wallet_receive', t('landing.receive')],
          ['wallet_send', t('landing.send')],
          ['wallet_transactions', t('landing.transactions')],
          ['wallet_security', t('landing.security')],
        ]}
      />
      <p>{t('landing.fullSupport')}</p>
      <p>{t('landing.partialSupport')}</p>
    </Layout>
  );
}

export const Head = pageHead('wallet');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "wallet"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
