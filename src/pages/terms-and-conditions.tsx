import * as React from 'react';
import { graphql, type PageProps } from 'gatsby';
import { useTranslation } from 'react-i18next';
import { Layout } from '../components/layout';
import { pageHead } from '../components/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import { usePageLanguage } from '../components/localized-link';
import { formatMoney } from '../i18n/format';
import { eur } from '../../domain/money';
import { FIRST_ORDER_LIMIT_EUR_MINOR, ORDER_LIMIT_EUR_MINOR } from '../../domain/limits';

export default function TermsPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('legal');
  const language = usePageLanguage();
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  return (
    <Layout page="terms_and_conditions" pathname={location.pathname}>
      <p className="lead">{t('terms_and_conditions.lead')}</p>
      {t('terms_and_conditions.body', { returnObjects: true, ...{ firstOrderLimit: money(FIRST_ORDER_LIMIT_EUR_MINOR), orderLimit: money(ORDER_LIMIT_EUR_MINOR) } }).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </Layout>
  );
}

export const Head = pageHead('terms_and_conditions');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "legal"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
