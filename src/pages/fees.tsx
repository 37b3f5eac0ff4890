import * as React from 'react';
import { graphql, type PageProps } from 'gatsby';
import { useTranslation } from 'react-i18next';
import { Layout } from '../components/layout';
import { pageHead } from '../components/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import { usePageLanguage } from '../components/localized-link';
import { formatMoney } from '../i18n/format';
import { eur } from '../../domain/money';
import { FEES } from '../../domain/fees';

export default function FeesPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  const language = usePageLanguage();
  return (
    <Layout page="fees" pathname={location.pathname}>
      <p className="lead">{t('fees.lead')}</p>
      <ul>
        <li>{t('fees.buy', { minimum: formatMoney(eur(FEES.buy.minimumEurMinor), 'EUR', language) })}</li>
        <li>{t('fees.sell')}</li>
        <li>{t('fees.swap')}</li>
      </ul>
      <p>{t('fees.extra')}</p>
    </Layout>
  );
}

export const Head = pageHead('fees');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
