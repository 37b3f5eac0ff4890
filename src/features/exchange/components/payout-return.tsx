import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { returnReasonKey } from '#domain/returns';
import { sepaIban } from '#domain/sepa';
import { ApiFailure } from '../../../app/api';
import { errorKeyOf, useErrorText, type ErrorTextKey } from '../../../app/error-text';
import { formatIban } from '../../../i18n/format';
import { Field } from '../../../ui/field';
import { usePageLanguage } from '../../../ui/localized-link';
import { giveNewIban } from '../api/orders';
import { formatMoney } from '../format';
import { useExchangeSession } from '../session';
import type { Order } from '../api/types';

/**
 * Who may give another IBAN for a returned payout on this page: the order's account holder
 * (opened from their own orders, logged in), or whoever holds the emailed link's token.
 */
export type ReturnAccess = { own: true } | { token: string };

/**
 * A payout the payee's bank sent back (server/src/modules/bank/returns.ts): what happened, the
 * bank's reason in plain words, and where the money stands; while it waits for another IBAN, the
 * form to give one (with the holder's name, which the link requires).
 */
export function PayoutReturnPanel({
  order,
  access,
  onChanged,
}: {
  order: Order;
  access?: ReturnAccess;
  onChanged: (order: Order) => void;
}) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const returned = order.payoutReturn!;
  const amount = formatMoney(returned.amount, 'EUR', language);
  const reason = t(`order.returnReasons.${returnReasonKey(returned.reason)}`);
  return (
    <section className="notice payout-return" aria-labelledby="payout-return-heading">
      <h3 id="payout-return-heading">{t('order.payoutReturn.heading')}</h3>
      <p>{t('order.payoutReturn.body', { iban: returned.iban ? formatIban(returned.iban) : '—', amount })}</p>
      <p>
        <strong>{t('order.payoutReturn.reason')}</strong> {reason}
        {returned.reason ? (
          <>
            {' '}
            <span className="muted small">({returned.reason})</span>
          </>
        ) : null}
      </p>
      {returned.state === 'awaiting_iban' ? (
        <>
          <p>{t('order.payoutReturn.awaiting')}</p>
          {access ? (
            <NewIbanForm order={order} access={access} onChanged={onChanged} />
          ) : (
            <p className="small">{t('order.payoutReturn.useLink')}</p>
          )}
        </>
      ) : (
        <p role="status">
          {t(
            returned.state === 'new_payout_completed'
              ? 'order.payoutReturn.completed'
              : returned.awaitingApproval
                ? 'order.payoutReturn.pendingApproval'
                : 'order.payoutReturn.pending',
            {
              amount,
              iban: returned.newIban ? formatIban(returned.newIban) : '—',
            },
          )}
        </p>
      )}
    </section>
  );
}

function NewIbanForm({
  order,
  access,
  onChanged,
}: {
  order: Order;
  access: ReturnAccess;
  onChanged: (order: Order) => void;
}) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const session = useExchangeSession();
  const errorText = useErrorText();
  const [iban, setIban] = React.useState('');
  const [holder, setHolder] = React.useState('');
  const [busy, setBusy] = React.useState(false);
  const [errors, setErrors] = React.useState<{ iban?: ErrorTextKey; holder?: ErrorTextKey; form?: ErrorTextKey }>({});
  const viaLink = 'token' in access;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    // The same checks as the server's first, so a typo is named at once.
    const checked = sepaIban(iban);
    const found: typeof errors = {};
    if (!checked.ok) found.iban = iban.trim() ? checked.code : 'required';
    if (viaLink && !holder.trim()) found.holder = 'required';
    setErrors(found);
    if (found.iban || found.holder) return;
    setBusy(true);
    try {
      const token = viaLink ? null : await session.getToken();
      const updated = await giveNewIban(token, language, order.reference, {
        iban,
        ...(holder.trim() ? { holderName: holder } : {}),
        ...(viaLink ? { token: access.token } : {}),
      });
      onChanged(updated);
    } catch (error) {
      const code = errorKeyOf(error);
      if (error instanceof ApiFailure && error.field === 'iban') setErrors({ iban: code });
      else if (error instanceof ApiFailure && error.field === 'holderName') setErrors({ holder: code });
      else setErrors({ form: code });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="new-iban-form" onSubmit={(event) => void submit(event)} noValidate>
      <h4>{t('order.payoutReturn.formHeading')}</h4>
      <Field
        id="new-iban"
        label={t('order.payoutReturn.iban')}
        value={iban}
        onChange={(e) => setIban(e.target.value)}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="characters"
        inputMode="text"
        maxLength={60}
        error={errors.iban ? errorText(errors.iban) : undefined}
      />
      <Field
        id="new-iban-holder"
        label={t('order.payoutReturn.holder')}
        value={holder}
        onChange={(e) => setHolder(e.target.value)}
        autoComplete="name"
        maxLength={70}
        required={viaLink}
        error={errors.holder ? errorText(errors.holder) : undefined}
        aria-describedby={errors.holder ? 'new-iban-holder-error new-iban-holder-hint' : 'new-iban-holder-hint'}
      />
      <p className="field-hint small muted" id="new-iban-holder-hint">
        {t('order.payoutReturn.holderHint')}
      </p>
      {errors.form ? (
        <p role="alert" className="form-error">
          {errorText(errors.form)}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={busy}>
        {busy ? t('order.payoutReturn.sending') : t('order.payoutReturn.submit')}
      </button>
    </form>
  );
}
