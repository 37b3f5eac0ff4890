import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../i18n/format';
import type { Language } from '#domain/languages';
import type { Send as SendView } from '../api/wallet';

/** What a send pays: the amount, the network fee and the address, in one sentence. */
export function SendReview({ send, language }: { send: SendView; language: Language }) {
  const { t } = useTranslation('wallet');
  return (
    <p>
      {t('send.review', {
        amount: formatMoney(send.amount, send.currency, language),
        fee: formatMoney(send.networkFee, send.currency, language),
        address: send.address,
      })}
    </p>
  );
}
