import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { FIRST_ORDER_LIMIT_EUR_MINOR } from '#domain/limits';
import { eur } from '#domain/money';
import { Layout } from '../app/layout';
import { Faq } from '../features/content/components/faq';
import { SupportForm } from '../features/content/components/support-form';
import { formatMoney } from '../i18n/format';
import { LocalizedLink, usePageLanguage } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function SupportPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  const { t: tc } = useTranslation('common');
  const language = usePageLanguage();
  const firstOrderLimit = formatMoney(eur(FIRST_ORDER_LIMIT_EUR_MINOR), 'EUR', language);
  return (
    <Layout page="support" pathname={location.pathname}>
      <p className="lead">{t('support.lead')}</p>
      <h2>{t('support.faqHeading')}</h2>
      <Faq items={t('support.faq', { returnObjects: true, firstOrderLimit })} />
      <h2>{t('support.pagesHeading')}</h2>
      <ul>
        {(['exchange_order_history', 'fees', 'identity', 'status', 'crypto_locker'] as const).map((name) => (
          <li key={name}>
            <LocalizedLink to={name}>{tc(`pages.${name}.title`)}</LocalizedLink>
          </li>
        ))}
      </ul>
      <SupportForm />
    </Layout>
  );
}

export const Head = pageHead('support');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info", "support", "errors"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
