import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { usePageLanguage } from '../../../components/localized-link';
import { formatDate, formatMoney, formatPercent } from '../../../i18n/format';
import { eur } from '../../../../domain/money';
import { FEES } from '../../../../domain/fees';
import {
  FIRST_ORDER_LIMIT_EUR_MINOR,
  ID_VERIFICATION_WEEKLY_EUR_MINOR,
  MOBILE_VERIFICATION_WEEKLY_EUR_MINOR,
  ORDER_LIMIT_EUR_MINOR,
} from '../../../../domain/limits';
import { IDENTITY_MAILBOX, SUPPORT_MAILBOX } from '../../../../domain/contact';
import { DocumentSections } from './document';
import type { SectionMap } from './document';

/** The date the current versions of the legal texts took effect. */
export const LEGAL_TEXTS_UPDATED = new Date('2026-11-22T12:00:00Z');

export type LegalDocumentKey = 'aml_policy' | 'cookie_policy' | 'privacy_policy' | 'terms_and_conditions';

/**
 * A legal page: lead, date of the version, contents and numbered sections. Figures that the
 * product enforces (fees, limits, thresholds) and the mailboxes are filled in from domain/, so
 * the legal texts cannot state other numbers than the rules apply.
 */
export function LegalDocument({ doc, children }: { doc: LegalDocumentKey; children?: React.ReactNode }) {
  const { t } = useTranslation('legal');
  const language = usePageLanguage();
  const money = (minor: bigint) => formatMoney(eur(minor), 'EUR', language);
  const values = {
    firstOrderLimit: money(FIRST_ORDER_LIMIT_EUR_MINOR),
    orderLimit: money(ORDER_LIMIT_EUR_MINOR),
    mobileLimit: money(MOBILE_VERIFICATION_WEEKLY_EUR_MINOR),
    idLimit: money(ID_VERIFICATION_WEEKLY_EUR_MINOR),
    buyFee: formatPercent(FEES.buy.basisPoints, language),
    buyMinimum: money(FEES.buy.minimumEurMinor),
    sellFee: formatPercent(FEES.sell.basisPoints, language),
    swapFee: formatPercent(FEES.swap.basisPoints, language),
    supportMailbox: SUPPORT_MAILBOX,
    identityMailbox: IDENTITY_MAILBOX,
  };
  const sections = t(`${doc}.sections`, { returnObjects: true, ...values }) as SectionMap;
  return (
    <>
      <p className="lead">{t(`${doc}.lead`, values)}</p>
      <p className="doc-meta">{t('updated', { date: formatDate(LEGAL_TEXTS_UPDATED, language) })}</p>
      <DocumentSections sections={sections} tocHeading={t('contents')} />
      {children}
    </>
  );
}
