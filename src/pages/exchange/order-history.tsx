import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { OperatorLicence } from '../../app/operator';
import { OrderHistoryIsland } from '../../features/exchange/components/order-history-island';
import { pageHead } from '../../ui/page-head';
import { SectionNav, exchangePages } from '../../ui/section-nav';
import type { LookupState } from '../../features/exchange/components/confirmation';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function OrderHistoryPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('exchange');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="exchange_order_history" pathname={location.pathname}>
      <SectionNav label={tc('pages.exchange.title')} names={exchangePages} />
      <p className="lead">{t('history.lead')}</p>
      <OrderHistoryIsland initialLookup={(location.state as Partial<LookupState> | null)?.lookup} />
      <OperatorLicence />
    </Layout>
  );
}

export const Head = pageHead('exchange_order_history');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(
      filter: { ns: { in: ["common", "exchange", "auth", "errors", "currencies"] }, language: { eq: $language } }
    ) {
      ...LocaleEdges
    }
  }
`;
