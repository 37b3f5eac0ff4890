import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { DepositIsland } from '../../features/exchange/components/deposit-island';
import { pageHead } from '../../ui/page-head';
import { SectionNav, exchangePages } from '../../ui/section-nav';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function ExchangeDepositPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('exchange');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="exchange_deposit" pathname={location.pathname}>
      <SectionNav label={tc('pages.exchange.title')} names={exchangePages} />
      <p className="lead">{t('deposit.lead')}</p>
      <DepositIsland />
    </Layout>
  );
}

export const Head = pageHead('exchange_deposit');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "exchange", "auth"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
