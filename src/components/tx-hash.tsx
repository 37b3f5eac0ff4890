import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from './copy-button';
import { useExchangeConfig } from './exchange-config';

/** A block explorer's page for a transaction: the configured pattern with the hash in place of `{txid}`. */
export function explorerUrl(pattern: string, txid: string): string {
  return pattern.split('{txid}').join(encodeURIComponent(txid));
}

/**
 * A chain transaction's hash (an order's payout, a wallet send or deposit): a link to the block
 * explorer configured for its currency (EXPLORER_URL_<CUR>; none in local mode), and copyable
 * whole either way. The explorers are asked for only where a hash is shown.
 */
export function TxHash({ txid, currency }: { txid: string; currency: string }) {
  const { t } = useTranslation('common');
  const pattern = useExchangeConfig()?.explorers[currency];
  const hash = <code className="address">{txid}</code>;
  return (
    <span className="copyable">
      {pattern ? (
        <a className="explorer-link" href={explorerUrl(pattern, txid)} target="_blank" rel="noopener noreferrer">
          {hash}
          <span aria-hidden="true"> ↗</span>
          <span className="visually-hidden"> {t('txHash.explorer')}</span>
        </a>
      ) : (
        hash
      )}
      <CopyButton value={txid} what={t('txHash.copy')} />
    </span>
  );
}
