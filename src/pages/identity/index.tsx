import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ID_VERIFICATION_WEEKLY_EUR_MINOR, MOBILE_VERIFICATION_WEEKLY_EUR_MINOR } from '#domain/limits';
import { eur } from '#domain/money';
import { Layout } from '../../app/layout';
import { formatMoney } from '../../i18n/format';
import { LocalizedLink, usePageLanguage } from '../../ui/localized-link';
import { pageHead } from '../../ui/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function IdentityPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('identity');
  const { t: tc } = useTranslation('common');
  const language = usePageLanguage();
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  return (
    <Layout page="identity" pathname={location.pathname}>
      <p className="lead">{t('overview.lead')}</p>
      <ul className="cards">
        <li>
          <h2>{t('overview.kinds.id.title')}</h2>
          <p>{t('overview.kinds.id.text', { amount: money(ID_VERIFICATION_WEEKLY_EUR_MINOR) })}</p>
        </li>
        <li>
          <h2>{t('overview.kinds.mobile.title')}</h2>
          <p>{t('overview.kinds.mobile.text', { amount: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR) })}</p>
        </li>
        <li>
          <h2>{t('overview.kinds.address.title')}</h2>
          <p>{t('overview.kinds.address.text')}</p>
        </li>
        <li>
          <h2>{t('overview.kinds.bank.title')}</h2>
          <p>{t('overview.kinds.bank.text')}</p>
        </li>
        <li>
          <h2>{t('overview.kinds.business.title')}</h2>
          <p>{t('overview.kinds.business.text')}</p>
        </li>
      </ul>
      <p>{t('overview.steps')}</p>
      <p>
        <LocalizedLink to="my_identity" className="button primary">
          {tc('pages.my_identity.title')}
        </LocalizedLink>
      </p>
    </Layout>
  );
}

export const Head = pageHead('identity');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "identity"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
