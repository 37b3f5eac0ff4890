import QRCode from 'qrcode';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ApiFailure } from '../../../app/api';
import { formatMoney } from '../../../i18n/format';
import { CopyButton } from '../../../ui/copy-button';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { Field } from '../../../ui/field';
import { usePageLanguage } from '../../../ui/localized-link';
import { createAddress, getAddresses, relabelAddress, type Address } from '../api/wallet';
import { BankGate, BankRequired } from './bank-required';
import { CurrencySelect } from './currency-select';
import { useWalletApi } from './use-wallet-api';

/** Reception addresses (with a verified bank account): create one per currency, label them, show a QR code and copy them. */
export function Receive() {
  return (
    <BankGate>
      <ReceiveAddresses />
    </BankGate>
  );
}

function ReceiveAddresses() {
  const { t } = useTranslation('wallet');
  const { token, language, errorText } = useWalletApi();
  const [addresses, setAddresses] = React.useState<Address[] | null>(null);
  const [error, setError] = React.useState<unknown>(null);
  const [busy, setBusy] = React.useState(false);
  const [currency, setCurrency] = React.useState<string>('BTC');
  const [label, setLabel] = React.useState('');

  React.useEffect(() => {
    token()
      .then((value) => getAddresses(value, language))
      .then(setAddresses, setError);
  }, [token, language]);

  // A deposit confirming on chain: followed every 15 s until it is credited.
  const confirming = (addresses ?? []).some((a) => (a.incoming ?? []).length > 0);
  React.useEffect(() => {
    if (!confirming) return undefined;
    const timer = setInterval(() => {
      void token()
        .then((value) => getAddresses(value, language))
        .then(setAddresses, () => undefined);
    }, 15_000);
    return () => clearInterval(timer);
  }, [confirming, token, language]);

  const create = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const created = await createAddress(await token(), language, currency, label.trim() || undefined);
      setAddresses((list) => [...(list ?? []), created]);
      setLabel('');
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const bankMissing = error instanceof ApiFailure && error.code === 'bank_verification_required';
  return (
    <>
      {bankMissing ? <BankRequired /> : error ? <p role="alert">{errorText(error)}</p> : null}
      <form onSubmit={create} className="inline-form">
        <CurrencySelect id="receive-currency" label={t('receive.currency')} value={currency} onChange={setCurrency} />
        <Field
          id="receive-label"
          label={t('receive.label')}
          value={label}
          maxLength={100}
          onChange={(e) => setLabel(e.target.value)}
        />
        <button type="submit" className="button primary" disabled={busy}>
          {busy ? t('receive.creating') : t('receive.create')}
        </button>
      </form>
      <h2>{t('receive.yours')}</h2>
      {addresses && addresses.length === 0 ? <p className="muted">{t('receive.none')}</p> : null}
      <ul className="address-list">
        {(addresses ?? []).map((a) => (
          <AddressItem
            key={a.id}
            address={a}
            onRelabel={async (value) => relabelAddress(await token(), language, a.id, value)}
          />
        ))}
      </ul>
    </>
  );
}

function AddressItem({ address, onRelabel }: { address: Address; onRelabel: (label: string) => Promise<Address> }) {
  const { t } = useTranslation('wallet');
  const { t: tcur } = useTranslation('currencies');
  const language = usePageLanguage();
  const [qr, setQr] = React.useState<string | null>(null);
  const [label, setLabel] = React.useState(address.label ?? '');
  React.useEffect(() => {
    void QRCode.toDataURL(address.address, { margin: 1, width: 160 }).then(setQr);
  }, [address.address]);
  const labelId = `label-${address.id}`;
  return (
    <li className="address-item">
      {qr ? <img src={qr} width={160} height={160} alt={t('receive.qr', { address: address.address })} /> : null}
      <div>
        <p>
          <WithCurrencyIcon code={address.currency}>
            <strong>{address.currency}</strong>
          </WithCurrencyIcon>{' '}
          <code className="address">{address.address}</code>{' '}
          <CopyButton value={address.address} what={t('receive.addressName', { currency: address.currency })} />
        </p>
        {/* What may be sent here, as on an order's page and in its email: the coin, its network, XRP's tag. */}
        <p className="notice small send-only" role="note" data-testid="send-only">
          {tcur(`sendOnly.${address.currency}` as 'sendOnly.BTC', { defaultValue: '' })}
        </p>
        {address.currency === 'XRP' ? <p className="muted small">{t('receive.xrpTag')}</p> : null}
        {(address.incoming ?? []).map((deposit) => (
          <p key={deposit.txid} className="small" role="status">
            {t('receive.incoming', {
              amount: formatMoney(deposit.amount, address.currency, language),
              confirmations: deposit.confirmations,
              required: deposit.required,
            })}
          </p>
        ))}
        <form
          className="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            void onRelabel(label);
          }}
        >
          {/* The kit's field, styled as the label field above it (a bare input showed the browser's own box). */}
          <Field
            id={labelId}
            label={t('receive.label')}
            value={label}
            maxLength={100}
            onChange={(e) => setLabel(e.target.value)}
          />
          <button type="submit" className="button small">
            {t('receive.saveLabel')}
          </button>
        </form>
      </div>
    </li>
  );
}
