import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { normalizeCode } from '#domain/codes';
import { localizePath, type Language } from '#domain/languages';
import { ApiFailure } from '../../../app/api';
import { errorKeyOf, formErrorKey, useErrorText } from '../../../app/error-text';
import { routes } from '../../../i18n/routes';
import { Field } from '../../../ui/field';
import { confirmOrder } from '../api/orders';
import { formatMoney } from '../format';
import { useExchangeSession } from '../session';
import { displayAddress } from './order-summary';
import type { Order } from '../api/types';

type StepUp = 'login_required_recent' | 'second_factor_required';

/**
 * An order paid from the wallet to an address or IBAN outside it is a send: it waits for the code
 * emailed to the account. Confirming needs a recent login (and past the day's limit a second
 * factor): then the page logs the user in again and comes back to their orders, where this form
 * waits with the same code still valid.
 */
export function WalletOrderCode({
  order,
  language,
  onConfirmed,
}: {
  order: Order;
  language: Language;
  onConfirmed: (order: Order) => void;
}) {
  const { t } = useTranslation('exchange');
  const errorText = useErrorText();
  const session = useExchangeSession();
  const form = useForm<{ code: string }>();
  const [stepUp, setStepUp] = React.useState<StepUp | null>(null);
  const id = React.useId();

  const confirm = form.handleSubmit(async ({ code }) => {
    const normalized = normalizeCode(code);
    if (!normalized) return form.setError('code', { message: 'invalid_code_format' });
    try {
      const token = await session.getToken();
      if (!token) return form.setError('code', { message: 'login_required' });
      onConfirmed(await confirmOrder(token, language, order.reference, normalized));
      setStepUp(null);
    } catch (error) {
      if (
        error instanceof ApiFailure &&
        (error.code === 'login_required_recent' || error.code === 'second_factor_required')
      )
        return setStepUp(error.code);
      form.setError('code', { message: errorKeyOf(error) });
    }
  });
  const again = () => void session.stepUp?.(localizePath(routes.exchange_order_history, language));

  return (
    <section className="next-step" aria-labelledby={`${id}-code`}>
      <h3 id={`${id}-code`}>{t('walletCode.heading')}</h3>
      <p className="wrap-anywhere">
        {t('walletCode.lead', {
          amount: formatMoney(order.amount, order.currencyFrom, language),
          address: displayAddress(order.address, order.currencyTo),
        })}
      </p>
      {stepUp ? (
        <div className="security-notice" role="alert">
          <p>{stepUp === 'login_required_recent' ? t('walletCode.loginAgain') : t('walletCode.secondFactor')}</p>
          {session.stepUp ? (
            <p>
              <button type="button" className="button primary" onClick={again}>
                {t('walletCode.loginAgainButton')}
              </button>
            </p>
          ) : null}
        </div>
      ) : null}
      <form onSubmit={confirm} noValidate className="identity-form">
        <Field
          id={`${id}-input`}
          label={t('walletCode.code')}
          autoComplete="one-time-code"
          spellCheck={false}
          error={errorText(formErrorKey(form.formState.errors.code?.message))}
          {...form.register('code', { required: true })}
        />
        <button type="submit" className="button primary" disabled={form.formState.isSubmitting}>
          {t('walletCode.confirm')}
        </button>
      </form>
    </section>
  );
}
