import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { SUPPORT_MAILBOX } from '#domain/contact';
import { SampleBadge, useOperatorDetails } from '../../../app/operator';
import { productFigures, type ProductFigures } from '../../../i18n/figures';
import { usePageLanguage } from '../../../ui/localized-link';
import { DocumentSections } from './document';
import type { SectionMap } from './document';

export type LegalDocumentKey = 'aml_policy' | 'cookie_policy' | 'privacy_policy' | 'terms_and_conditions';
const NAMES_OPERATOR = new Set<LegalDocumentKey>(['privacy_policy', 'terms_and_conditions']);

/**
 * A legal page: lead, date of the version, contents and numbered sections. Figures that the
 * product enforces (fees, limits, thresholds) and the mailboxes are filled in from domain/, so
 * the legal texts cannot state other numbers than the rules apply; the operator's name and
 * address come from the server's configuration (app/operator.tsx).
 */
export function LegalDocument({
  doc,
  figures,
  children,
}: {
  doc: LegalDocumentKey;
  figures?: ProductFigures;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation('legal');
  const language = usePageLanguage();
  // Formatted at build time (the page context), or here when a page has none.
  const { legalTextsUpdated, ...amounts } = figures ?? productFigures(language);
  const operator = useOperatorDetails();
  const values = {
    ...amounts,
    supportMailbox: SUPPORT_MAILBOX,
    operatorName: operator.name,
    operatorAddress: operator.address,
  };
  const sections = t(`${doc}.sections`, { returnObjects: true, ...values }) as SectionMap;
  return (
    <>
      <p className="lead">{t(`${doc}.lead`, values)}</p>
      <p className="doc-meta">{t('updated', { date: legalTextsUpdated })}</p>
      {/* The texts that name the operator say when the name is the local mode's sample. */}
      {operator.sample && NAMES_OPERATOR.has(doc) ? (
        <p>
          <SampleBadge />
        </p>
      ) : null}
      <DocumentSections sections={sections} tocHeading={t('contents')} />
      {children}
    </>
  );
}
