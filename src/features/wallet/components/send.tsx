import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { normalizeAddress } from '../../../../domain/addresses';
import { normalizeCode } from '../../../../domain/codes';
import { normalizeAmountInput } from '../../../../domain/money';
import { ApiFailure } from '../../../components/api';
import { errorKeyOf, formErrorKey, useErrorText } from '../../../components/error-text';
import { Field } from '../../../components/field';
import { formatMoney } from '../../../i18n/format';
import { confirmSend, startSend, type Send as SendView } from '../api/wallet';
import { BankRequired } from './bank-required';
import { CurrencySelect } from './currency-select';
import { useWalletApi } from './use-wallet-api';

type SendForm = { currency: string; address: string; amount: string; label: string };

/** Send: details (checked here and by the API), the emailed code, then "being processed". */
export function Send() {
  const { t } = useTranslation('wallet');
  const { token, language } = useWalletApi();
  const errorText = useErrorText();
  const [send, setSend] = React.useState<SendView | null>(null);
  const [bankMissing, setBankMissing] = React.useState(false);
  // One key per attempt: a double click or a retry after a lost answer starts one send.
  const idempotencyKey = React.useRef(crypto.randomUUID());
  const form = useForm<SendForm>({ defaultValues: { currency: 'BTC', address: '', amount: '', label: '' } });
  const codeForm = useForm<{ code: string }>();

  const submit = form.handleSubmit(async (values) => {
    if (!normalizeAddress(values.currency, values.address)) return form.setError('address', { message: 'invalid_address' });
    try {
      setSend(await startSend(await token(), language, { ...values, amount: normalizeAmountInput(values.amount), label: values.label || undefined }, idempotencyKey.current));
    } catch (error) {
      if (error instanceof ApiFailure && error.code === 'bank_verification_required') return setBankMissing(true);
      const field = error instanceof ApiFailure && ['address', 'amount', 'currency'].includes(error.field ?? '') ? (error.field as keyof SendForm) : 'amount';
      form.setError(field, { message: errorKeyOf(error) });
    }
  });

  const confirm = codeForm.handleSubmit(async ({ code }) => {
    const normalized = normalizeCode(code);
    if (!normalized) return codeForm.setError('code', { message: 'invalid_code_format' });
    try {
      setSend(await confirmSend(await token(), language, send!.id, normalized));
    } catch (error) {
      codeForm.setError('code', { message: errorKeyOf(error) });
    }
  });

  const again = () => {
    idempotencyKey.current = crypto.randomUUID();
    setSend(null);
    form.reset();
    codeForm.reset();
  };
  const message = (code?: string) => errorText(formErrorKey(code));

  if (bankMissing) return <BankRequired />;
  if (send && send.status !== 'awaiting_code') {
    return (
      <div role="status">
        <p className="lead">{send.status === 'completed' ? t('send.completed') : t('send.processing')}</p>
        <button type="button" className="button" onClick={again}>
          {t('send.another')}
        </button>
      </div>
    );
  }
  if (send) {
    const err = message(codeForm.formState.errors.code?.message);
    return (
      <>
        <p>
          {t('send.review', {
            amount: formatMoney(send.amount, send.currency, language),
            fee: formatMoney(send.networkFee, send.currency, language),
            address: send.address,
          })}
        </p>
        {send.internal ? <p>{t('send.internal')}</p> : null}
        <p>{t('send.codeSent')}</p>
        <form onSubmit={confirm} noValidate className="identity-form">
          <Field id="send-code" label={t('send.code')} autoComplete="one-time-code" error={err} {...codeForm.register('code', { required: true })} />
          <button type="submit" className="button primary" disabled={codeForm.formState.isSubmitting}>
            {t('send.confirm')}
          </button>
        </form>
      </>
    );
  }
  const field = (name: keyof SendForm, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field id={`send-${name}`} label={t(`send.${name}`)} error={message(form.formState.errors[name]?.message)} {...props} {...form.register(name, { required: name !== 'label' })} />
  );
  return (
    <form onSubmit={submit} noValidate className="identity-form">
      <CurrencySelect id="send-currency" label={t('send.currency')} {...form.register('currency')} />
      {field('address', { spellCheck: false, autoComplete: 'off' })}
      {field('amount', { inputMode: 'decimal', autoComplete: 'off' })}
      {field('label', { maxLength: 100 })}
      <button type="submit" className="button primary" disabled={form.formState.isSubmitting}>
        {form.formState.isSubmitting ? t('send.sending') : t('send.continue')}
      </button>
    </form>
  );
}
