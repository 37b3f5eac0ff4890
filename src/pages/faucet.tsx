import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { AuthIsland } from '../app/auth-island';
import { Layout } from '../app/layout';
import { FaucetGame } from '../features/faucet/components/faucet-game';
import { FaucetPlay } from '../features/faucet/components/play';
import { IslandPlaceholder } from '../ui/island';
import { LocalizedLink } from '../ui/localized-link';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';

/** The faucet: public round, entering with a login (the login SDK wraps only the player's panel). */
export default function FaucetPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('faucet');
  return (
    <Layout page="faucet" pathname={location.pathname}>
      <p className="lead">{t('lead')}</p>
      <p>
        {t('fair')} <LocalizedLink to="faucet_history">{t('fairness.history')}</LocalizedLink>
      </p>
      <p>{t('requirements')}</p>
      <IslandPlaceholder name="faucet">
        <FaucetGame>
          <AuthIsland>
            <FaucetPlay />
          </AuthIsland>
        </FaucetGame>
      </IslandPlaceholder>
    </Layout>
  );
}

export const Head = pageHead('faucet');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "faucet", "auth", "errors"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
