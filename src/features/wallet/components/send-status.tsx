import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { TxHash } from '../../../app/tx-hash';
import { usePolled } from '../../../app/use-polled';
import { getSend, type Send as SendView } from '../api/wallet';
import { WALLET_REFRESH_MS } from './refresh';
import { SendReview } from './send-review';
import { useWalletApi } from './use-wallet-api';

/** Not final yet: the page asks again until the send is completed or failed. */
const isOpen = (status: SendView['status']) => status === 'processing' || status === 'awaiting_approval';

/** A confirmed send: its status as the API reports it, asked again until it is final, and the transaction hash once paid out. */
export function SendStatus({ send: confirmed, onAnother }: { send: SendView; onAnother: () => void }) {
  const { t } = useTranslation('wallet');
  const { token, language } = useWalletApi();
  const [open, setOpen] = React.useState(isOpen(confirmed.status));
  const polled = usePolled(
    async () => getSend(await token(), language, confirmed.id),
    confirmed.id,
    open ? WALLET_REFRESH_MS : undefined,
  );
  const send = polled.data ?? confirmed;
  React.useEffect(() => setOpen(isOpen(send.status)), [send.status]);
  const headline =
    send.status === 'completed'
      ? send.internal
        ? t('send.completed')
        : t('send.paidOut')
      : send.status === 'failed'
        ? t('send.failed')
        : send.status === 'awaiting_approval'
          ? t('send.awaitingApproval')
          : t('send.processing');
  return (
    <div className="send-result">
      <p className="lead" role="status">
        {headline}
      </p>
      <SendReview send={send} language={language} />
      <dl className="send-facts">
        <div>
          <dt>{t('send.status')}</dt>
          <dd>
            <span className={`send-status send-status-${send.status}`}>{t(`send.statuses.${send.status}`)}</span>
          </dd>
        </div>
        {send.txid ? (
          <div>
            <dt>{t('send.txid')}</dt>
            <dd>
              <TxHash txid={send.txid} currency={send.currency} />
            </dd>
          </div>
        ) : null}
      </dl>
      {open ? <p className="muted small">{t('send.live')}</p> : null}
      <button type="button" className="button" onClick={onAnother}>
        {t('send.another')}
      </button>
    </div>
  );
}

/** What the send is: amount, fee and address, as the user asked for it and as it went out. */
