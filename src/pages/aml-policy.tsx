import * as React from 'react';
import { graphql, type PageProps } from 'gatsby';
import { useTranslation } from 'react-i18next';
import { Layout } from '../components/layout';
import { pageHead } from '../components/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import { usePageLanguage } from '../components/localized-link';
import { formatMoney } from '../i18n/format';
import { eur } from '../../domain/money';
import { ID_VERIFICATION_WEEKLY_EUR_MINOR, MOBILE_VERIFICATION_WEEKLY_EUR_MINOR } from '../../domain/limits';

export default function AmlPolicyPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('legal');
  const language = usePageLanguage();
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  return (
    <Layout page="aml_policy" pathname={location.pathname}>
      <p className="lead">{t('aml_policy.lead')}</p>
      {t('aml_policy.body', { returnObjects: true, ...{ mobileLimit: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR), idLimit: money(ID_VERIFICATION_WEEKLY_EUR_MINOR) } }).map((paragraph) => (
        <p key={paragraph}>{paragraph}</p>
      ))}
    </Layout>
  );
}

export const Head = pageHead('aml_policy');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "legal"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
