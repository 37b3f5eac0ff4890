import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Layout } from '../../app/layout';
import { IdentityOverview } from '../../features/identity/components/overview';
import { LocalizedLink } from '../../ui/localized-link';
import { pageHead } from '../../ui/page-head';
import type { I18nPageContext, LocalesData } from '../../i18n/page-types';

export default function IdentityPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('identity');
  const { t: tc } = useTranslation('common');
  return (
    <Layout page="identity" pathname={location.pathname}>
      <p className="lead">{t('overview.lead')}</p>
      <IdentityOverview />
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
