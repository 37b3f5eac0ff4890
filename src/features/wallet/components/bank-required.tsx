import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { LocalizedLink } from '../../../components/localized-link';

/** Why a wallet feature is closed, and where to open it. */
export function BankRequired() {
  const { t } = useTranslation('wallet');
  return (
    <p role="alert">
      {t('bankRequired.text')} <LocalizedLink to="my_identity">{t('bankRequired.link')}</LocalizedLink>
    </p>
  );
}
