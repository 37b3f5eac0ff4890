import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { PageCards } from '../../ui/page-cards';
import { pageHead } from '../../ui/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function ExchangePage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('exchange');
  return (
    <Layout page="exchange" pathname={location.pathname}>
      <p className="lead">{t('landing.lead')}</p>
      <PageCards
        cards={[
          ['exchange_buy', t('landing.buy')],
          ['exchange_sell', t('landing.sell')],
          ['exchange_swap', t('landing.swap')],
          ['exchange_deposit', t('landing.deposit')],
          ['exchange_order_history', t('landing.history')],
        ]}
      />
      <p>{t('rateNotice')}</p>
    </Layout>
  );
}

export const Head = pageHead('exchange');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "exchange"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
