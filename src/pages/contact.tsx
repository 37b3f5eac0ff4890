import { graphql, type PageProps } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORT_MAILBOX } from '#domain/contact';
import { Layout } from '../app/layout';
import { SupportForm } from '../features/content/components/support-form';
import { pageHead } from '../ui/page-head';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import '../features/content/content.css';

export default function ContactPage({ location }: PageProps<LocalesData, I18nPageContext>) {
  const { t } = useTranslation('info');
  return (
    <Layout page="contact" pathname={location.pathname}>
      <p className="lead">{t('contact.lead')}</p>
      <h2>{t('contact.addressesHeading')}</h2>
      <dl className="identity-data">
        <dt>{t('contact.supportMailbox')}</dt>
        <dd>
          <a href={`mailto:${SUPPORT_MAILBOX}`}>{SUPPORT_MAILBOX}</a>
        </dd>
      </dl>
      <p>{t('contact.identityNote')}</p>
      <h2>{t('contact.verificationHeading')}</h2>
      <p>{t('contact.verification')}</p>
      <h2>{t('contact.safetyHeading')}</h2>
      <ul>
        {t('contact.safety', { returnObjects: true }).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      <SupportForm />
    </Layout>
  );
}

export const Head = pageHead('contact');

export const query = graphql`
  query ($language: String!) {
    locales: allLocale(filter: { ns: { in: ["common", "info", "support", "errors"] }, language: { eq: $language } }) {
      ...LocaleEdges
    }
  }
`;
