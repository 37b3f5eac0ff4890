import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENCIES } from '#domain/currencies';
import { Layout } from '../app/layout';
import { OperatorLicence } from '../app/operator';
import { productFigures } from '../i18n/figures';
import { LocalizedLink, usePageLanguage } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';

export default function HomePage({ location, pageContext }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('home');
  const language = usePageLanguage();
  // Formatted at build time (gatsby-node), or here when the context has none.
  const figures = pageContext.figures ?? productFigures(language);
  return (
    <Layout page="home" pathname={location.pathname} heading={t('hero.heading')}>
      <p className="lead">{t('hero.lead', { count: CURRENCIES.length })}</p>
      <p className="actions">
        <LocalizedLink to="exchange_buy" className="button primary">
          {t('hero.ctaBuy')}
        </LocalizedLink>
        <LocalizedLink to="wallet" className="button">
          {t('hero.ctaWallet')}
        </LocalizedLink>
      </p>
      <h2>{t('features.heading')}</h2>
      <ul className="cards">
        <li>
          <h3>
            <LocalizedLink to="exchange">{t('features.exchange.title')}</LocalizedLink>
          </h3>
          <p>{t('features.exchange.text')}</p>
        </li>
        <li>
          <h3>
            <LocalizedLink to="wallet">{t('features.wallet.title')}</LocalizedLink>
          </h3>
          <p>{t('features.wallet.text')}</p>
        </li>
        <li>
          <h3>
            <LocalizedLink to="identity">{t('features.identity.title')}</LocalizedLink>
          </h3>
          <p>
            {t('features.identity.text', {
              mobileLimit: figures.mobileLimit,
              idLimit: figures.idLimit,
            })}
          </p>
        </li>
        <li>
          <h3>
            <LocalizedLink to="faucet">{t('features.faucet.title')}</LocalizedLink>
          </h3>
          <p>{t('features.faucet.text')}</p>
        </li>
      </ul>
      <h2>{t('limits.heading')}</h2>
      <ul>
        <li>{t('limits.firstOrder', { amount: figures.firstOrderLimit })}</li>
        <li>{t('limits.anyOrder', { amount: figures.orderLimit })}</li>
        <li>{t('limits.fees', { minimum: figures.buyMinimum })}</li>
      </ul>
      <OperatorLicence />
    </Layout>
  );
}

export const Head = pageHead('home');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "home"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
