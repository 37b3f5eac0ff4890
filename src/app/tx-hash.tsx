import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../ui/copy-button';
import { useExchangeConfig } from './exchange-config';

/** A block explorer's page for a transaction: the configured pattern with the hash in place of `{txid}`. */
export function explorerUrl(pattern: string, txid: string): string {
  return pattern.split('{txid}').join(encodeURIComponent(txid));
}

/** A long hash by its first 10 and last 8 characters ("f4184fc596…831e9e16"): enough to recognize it. */
export const abbreviate = (txid: string): string =>
  txid.length > 24 ? `${txid.slice(0, 10)}…${txid.slice(-8)}` : txid;

/**
 * A chain transaction's hash (an order's payout, a wallet send or deposit): a link to the block
 * explorer configured for its currency (EXPLORER_URL_<CUR>; none in local mode), and copyable
 * whole either way. The explorers are asked for only where a hash is shown.
 */
export function TxHash({ txid, currency, short = false }: { txid: string; currency: string; short?: boolean }) {
  const { t } = useTranslation('common');
  const pattern = useExchangeConfig()?.explorers[currency];
  // In a table a hash is shown by its start and end (the whole of it on hover, in the link and in the copy).
  const shown = short ? abbreviate(txid) : txid;
  const hash = (
    <code className="address" title={shown === txid ? undefined : txid}>
      {shown}
    </code>
  );
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
