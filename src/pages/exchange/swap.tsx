import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { OperatorLicence } from '../../app/operator';
import { OrderIsland } from '../../features/exchange/components/order-island';
import { pageHead } from '../../ui/page-head';
import { SectionNav, exchangePages } from '../../ui/section-nav';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function ExchangeSwapPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('exchange');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="exchange_swap" pathname={location.pathname}>
      <SectionNav label={tc('pages.exchange.title')} names={exchangePages} />
      <p className="lead">{t('swap.lead')}</p>
      <p>{t('rateNotice')}</p>
      <OrderIsland type="swap" />
      <OperatorLicence />
    </Layout>
  );
}

export const Head = pageHead('exchange_swap');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: { ns: { in: ["common", "exchange", "auth", "errors", "currencies"] }, language: { eq: $language } }
    ) {
      ...LocaleEdges
    }
  }
`;
