import * as React from 'react';
import { useTranslation } from 'react-i18next';

/** Copies a value (an address, a transaction hash) and says so. */
export function CopyButton({ value }: { value: string }) {
  const { t } = useTranslation('wallet');
  const [copied, setCopied] = React.useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <>
      <button type="button" className="button small" onClick={() => void copy()}>
        {t('send.copy')}
      </button>{' '}
      <span role="status">{copied ? t('send.copied') : ''}</span>
    </>
  );
}
