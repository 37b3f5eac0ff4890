import * as React from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ETH_GAS_LIMIT } from '#domain/fees';
import { localizePath } from '#domain/languages';
import { ApiFailure } from '../../../app/api';
import { formErrorKey, useErrorText, type ErrorTextKey } from '../../../app/error-text';
import { rulesResolver } from '../../../app/form-rules';
import { formatNumber } from '../../../i18n/format';
import { routes } from '../../../i18n/routes';
import { useCurrencyName } from '../../../ui/currency-name';
import { CurrencyPicker, type CurrencyOption } from '../../../ui/currency-picker';
import { CheckboxField, Field, SelectField } from '../../../ui/field';
import { LocalizedLink, usePageLanguage } from '../../../ui/localized-link';
import { asTransition } from '../../../ui/transition';
import { useDraft } from '../../../ui/use-draft';
import { useHydrated } from '../../../ui/use-hydrated';
import { getCurrencies } from '../api/currencies';
import { placeOrder, type PlaceOrder } from '../api/orders';
import {
  amountProblem,
  beneficiaryToSend,
  chosenDecimals,
  deliveryKind,
  loadPayeeRules,
  normalizeAmount,
  orderFormRules,
  type OrderFormValues,
  type PayeeRules,
} from '../order-schema';
import { useExchangeSession } from '../session';
import { useLiveQuote } from '../use-live-quote';
import { randomUuid } from '../uuid';
import { QuotePanel } from './quote-panel';
import type { CurrencyInfo, Order, OrderType } from '../api/types';

/**
 * The buy, sell and swap form: currencies, amount (in the currency sent), email, where the result
 * goes, payment method, the own-wallet options, a live estimate, and the order placed with an
 * Idempotency-Key (one per attempt, reused when the same attempt is retried). API errors stand
 * next to the field the API names.
 */
const FIELDS = [
  'currencyFrom',
  'currencyTo',
  'amount',
  'email',
  'address',
  'beneficiary',
  'beneficiaryLatin',
  'paymentMethod',
  'sendToMyWallet',
  'useMyWallet',
  'fromBusinessAccount',
] as const;
type FieldName = (typeof FIELDS)[number];
const isField = (name: string | undefined): name is FieldName => FIELDS.includes(name as FieldName);

/** Whether a field is on screen for this order type and these options (an error needs a place). */
function shownFor(type: OrderType, name: FieldName, values: OrderFormValues): boolean {
  if (name === 'currencyFrom') return type !== 'buy';
  if (name === 'currencyTo') return type !== 'sell';
  if (name === 'address') return !values.sendToMyWallet;
  if (name === 'beneficiary' || name === 'beneficiaryLatin') return type === 'sell' && !values.sendToMyWallet;
  if (name === 'paymentMethod' || name === 'fromBusinessAccount') return type === 'buy' && !values.useMyWallet;
  return true;
}

export function defaultsFor(type: OrderType): OrderFormValues {
  const [currencyFrom, currencyTo] =
    type === 'buy' ? ['EUR', 'BTC'] : type === 'sell' ? ['BTC', 'EUR'] : ['BTC', 'ETH'];
  return {
    currencyFrom,
    currencyTo,
    amount: '',
    email: '',
    address: '',
    beneficiary: '',
    beneficiaryLatin: '',
    paymentMethod: 'sepa',
    sendToMyWallet: false,
    useMyWallet: false,
    fromBusinessAccount: false,
  };
}

type Props = {
  type: OrderType;
  /** Called with the placed order and the email it was placed with. */
  onPlaced: (order: Order, email: string) => void;
  /** The API said buying and selling are switched off. */
  onDisabled: () => void;
};

export function OrderForm({ type, onPlaced, onDisabled }: Props) {
  const { t } = useTranslation('exchange');
  const { t: tcur } = useTranslation('currencies');
  const nameOf = useCurrencyName();
  const language = usePageLanguage();
  const hydrated = useHydrated();
  const session = useExchangeSession();
  const errorText = useErrorText();
  const [currencies, setCurrencies] = React.useState<CurrencyInfo[] | null>(null);
  const [loadFailed, setLoadFailed] = React.useState(false);
  const [formError, setFormError] = React.useState<ErrorTextKey | null>(null);
  // How long a limit asks the customer to wait, shown with its text.
  const [retryAfter, setRetryAfter] = React.useState<number | undefined>();
  const attempt = React.useRef<{ body: string; key: string } | null>(null);
  const loggedIn = session.status === 'authenticated';

  React.useEffect(() => {
    getCurrencies(language).then(asTransition(setCurrencies), () => setLoadFailed(true));
  }, [language]);

  const resolver = React.useMemo(
    () => rulesResolver(orderFormRules(type, currencies ?? [], loggedIn)),
    [type, currencies, loggedIn],
  );
  const form = useForm<OrderFormValues>({
    resolver,
    defaultValues: defaultsFor(type),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, setError, watch, formState } = form;
  // What was typed survives a language switch (a new page) until the order is placed.
  const draft = useDraft(`order-${type}`, form);
  const values = watch();
  const cryptoCurrencies = (currencies ?? []).filter((c) => c.code !== 'EUR');
  const fromDecimals = chosenDecimals(values.currencyFrom);

  const quoteRequest =
    currencies &&
    fromDecimals !== null &&
    !amountProblem(values.amount, fromDecimals) &&
    values.currencyFrom !== values.currencyTo
      ? {
          type,
          currencyFrom: values.currencyFrom,
          currencyTo: values.currencyTo,
          amount: normalizeAmount(values.amount),
          ...(values.sendToMyWallet ? { sendToMyWallet: true } : {}),
        }
      : null;
  const quote = useLiveQuote(quoteRequest, language);

  // A swap never goes from a currency to itself: the target list leaves the source out.
  React.useEffect(() => {
    if (type !== 'swap' || !currencies || values.currencyTo !== values.currencyFrom) return;
    const other = currencies.find((c) => c.code !== values.currencyFrom && !c.ownWalletOnly);
    if (other) form.setValue('currencyTo', other.code);
  }, [type, currencies, values.currencyFrom, values.currencyTo, form]);

  const shown = (name: FieldName, input: OrderFormValues) => shownFor(type, name, input);

  // A sell's payee name: its Latin spelling follows the name as it is typed, until the customer
  // corrects the spelling themselves (then it is theirs, until the name is emptied).
  const payee = usePayeeRules(type === 'sell');
  const latinEdited = React.useRef<boolean | null>(null);
  const latinShown = Boolean(payee?.needsLatinSpelling(values.beneficiary));
  React.useEffect(() => {
    if (!payee) return;
    const suggested = payee.needsLatinSpelling(values.beneficiary) ? payee.sepaLatin(values.beneficiary) : '';
    // A spelling restored from the draft (after a language switch) that differs from ours was the customer's.
    if (latinEdited.current === null)
      latinEdited.current =
        Boolean(form.getValues('beneficiaryLatin')) && form.getValues('beneficiaryLatin') !== suggested;
    if (!values.beneficiary.trim()) latinEdited.current = false;
    if (latinEdited.current) return;
    if (form.getValues('beneficiaryLatin') !== suggested) form.setValue('beneficiaryLatin', suggested);
  }, [payee, values.beneficiary, form]);

  const submit = handleSubmit(async (input) => {
    setFormError(null);
    const body: PlaceOrder = {
      type,
      currencyFrom: input.currencyFrom,
      currencyTo: input.currencyTo,
      amount: normalizeAmount(input.amount),
      email: input.email.trim(),
      ...(input.sendToMyWallet ? { sendToMyWallet: true } : { address: input.address.trim() }),
      ...(type === 'sell' && !input.sendToMyWallet
        ? { beneficiary: beneficiaryToSend(input, await loadPayeeRules()) }
        : {}),
      ...(input.useMyWallet ? { useMyWallet: true } : {}),
      ...(type === 'buy' && !input.useMyWallet ? { paymentMethod: input.paymentMethod } : {}),
      ...(type === 'buy' && !input.useMyWallet && input.fromBusinessAccount ? { fromBusinessAccount: true } : {}),
    };
    // A retry of the same attempt (a lost answer, a double click) reuses its key: one order.
    const serialized = JSON.stringify(body);
    if (attempt.current?.body !== serialized) attempt.current = { body: serialized, key: randomUuid() };
    try {
      const token =
        input.sendToMyWallet || input.useMyWallet || body.fromBusinessAccount ? await session.getToken() : null;
      const order = await placeOrder(token, language, body, attempt.current.key);
      attempt.current = null;
      draft.clear();
      onPlaced(order, order.email ?? body.email);
    } catch (error) {
      if (!(error instanceof ApiFailure)) return setFormError('try_again_soon');
      if (error.code === 'buy_sell_disabled') return onDisabled();
      if (error.code === 'login_required') {
        const field =
          error.field === 'fromBusinessAccount'
            ? 'fromBusinessAccount'
            : input.useMyWallet && !input.sendToMyWallet
              ? 'useMyWallet'
              : 'sendToMyWallet';
        // A business payment needs more than a login (a verified business): say so, not "Send to my wallet".
        return setError(
          field,
          { message: field === 'fromBusinessAccount' ? 'login_required_business' : 'login_required' },
          { shouldFocus: true },
        );
      }
      // The API names the name it was sent: the Latin spelling when the form showed it.
      const field =
        error.field === 'beneficiary' && payee?.needsLatinSpelling(input.beneficiary)
          ? 'beneficiaryLatin'
          : error.field;
      if (isField(field) && shown(field, input)) return setError(field, { message: error.code }, { shouldFocus: true });
      setRetryAfter(error.retryAfter);
      setFormError(error.code);
    }
  });

  if (loadFailed) return <p role="alert">{t('form.loadError')}</p>;
  if (!currencies) return <p className="muted">{t('form.loading')}</p>;

  const fieldError = (name: FieldName) => {
    const code = formState.errors[name]?.message;
    const currency =
      name === 'amount' ? values.currencyFrom : name === 'currencyFrom' ? values.currencyFrom : values.currencyTo;
    return errorText(formErrorKey(code), { decimals: fromDecimals ?? undefined, currency });
  };
  const option = (c: CurrencyInfo): CurrencyOption => ({
    code: c.code,
    name: nameOf(c.code, c.name),
    ...(c.ownWalletOnly ? { note: t('form.walletOnlyNote') } : {}),
  });
  const picker = (name: 'currencyFrom' | 'currencyTo', label: string, options: CurrencyOption[]) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <CurrencyPicker
          id={`order-${name}`}
          label={label}
          options={options}
          value={field.value}
          onChange={field.onChange}
          onBlur={field.onBlur}
          name={field.name}
          ref={field.ref}
          error={fieldError(name)}
        />
      )}
    />
  );
  const partial = (code: string) => currencies.find((c) => c.code === code)?.ownWalletOnly;
  const login = `${localizePath(routes.login, language)}?returnTo=${encodeURIComponent(typeof window === 'undefined' ? '' : window.location.pathname)}`;
  const kind = deliveryKind(type);
  // ETH goes out as a plain 21,000-gas transfer (a contract may refuse it); XRP needs the receiver's destination tag.
  const addressHint =
    kind === 'iban'
      ? t('form.ibanHint')
      : values.currencyTo === 'XRP'
        ? t('form.xrpHint')
        : values.currencyTo === 'ETH'
          ? t('form.ethHint', { gasLimit: formatNumber(ETH_GAS_LIMIT, language) })
          : t('form.addressHint', { currency: values.currencyTo });
  const hint = (id: string, text: string) => (
    <p className="field-hint small muted" id={id}>
      {text}
    </p>
  );

  return (
    <form onSubmit={submit} noValidate className="order-form">
      <div className="order-columns">
        <div>
          {type === 'buy' ? (
            <p className="fixed-currency">{t('form.payInEur')}</p>
          ) : (
            picker(
              'currencyFrom',
              t(type === 'sell' ? 'form.from.sell' : 'form.from.swap'),
              cryptoCurrencies.map(option),
            )
          )}
          {partial(values.currencyFrom) ? <p className="small">{t('form.partialNotice')}</p> : null}
          {/* Sent from outside: what may be sent, on which network, as the order page and its email say. */}
          {type !== 'buy' &&
          !values.useMyWallet &&
          !partial(values.currencyFrom) &&
          tcur(`sendOnly.${values.currencyFrom}` as 'sendOnly.BTC', { defaultValue: '' }) ? (
            <p className="small send-only" data-testid="send-only-hint">
              {tcur(`sendOnly.${values.currencyFrom}` as 'sendOnly.BTC', { defaultValue: '' })}
            </p>
          ) : null}
          {type === 'sell' ? (
            <p className="fixed-currency">{t('form.receiveEur')}</p>
          ) : (
            picker(
              'currencyTo',
              t(type === 'buy' ? 'form.to.buy' : 'form.to.swap'),
              cryptoCurrencies.filter((c) => type !== 'swap' || c.code !== values.currencyFrom).map(option),
            )
          )}
          {partial(values.currencyTo) ? <p className="small">{t('form.partialNotice')}</p> : null}

          <Field
            id="order-amount"
            label={t('form.amount', { currency: values.currencyFrom })}
            inputMode="decimal"
            autoComplete="off"
            error={fieldError('amount')}
            aria-describedby={formState.errors.amount ? 'order-amount-error order-amount-hint' : 'order-amount-hint'}
            {...register('amount')}
          />
          {fromDecimals === null
            ? null
            : hint(
                'order-amount-hint',
                t('form.amountHint', { decimals: fromDecimals, currency: values.currencyFrom }),
              )}

          <Field
            id="order-email"
            label={t('form.email')}
            type="email"
            autoComplete="email"
            error={fieldError('email')}
            aria-describedby={formState.errors.email ? 'order-email-error order-email-hint' : 'order-email-hint'}
            {...register('email')}
          />
          {hint('order-email-hint', t('form.emailHint'))}

          <fieldset className="own-wallet">
            <legend>{t('form.ownWallet')}</legend>
            <CheckboxField
              id="order-sendToMyWallet"
              label={t('form.sendToMyWallet')}
              hint={t(`form.sendToMyWalletHint.${type}`)}
              error={fieldError('sendToMyWallet')}
              {...register('sendToMyWallet')}
            />
            <CheckboxField
              id="order-useMyWallet"
              label={t('form.useMyWallet')}
              hint={t(`form.useMyWalletHint.${type}`)}
              error={fieldError('useMyWallet')}
              {...register('useMyWallet')}
            />
            {!loggedIn && (values.sendToMyWallet || values.useMyWallet) ? (
              <p className="small">
                <a href={login}>{t('form.loginLink')}</a>
              </p>
            ) : null}
          </fieldset>

          {values.sendToMyWallet ? null : (
            <>
              <Field
                id="order-address"
                label={kind === 'iban' ? t('form.iban') : t('form.address', { currency: values.currencyTo })}
                autoComplete="off"
                spellCheck={false}
                error={fieldError('address')}
                aria-describedby={
                  formState.errors.address ? 'order-address-error order-address-hint' : 'order-address-hint'
                }
                {...register('address')}
              />
              {hint('order-address-hint', addressHint)}
              {kind === 'iban' ? (
                <>
                  <Field
                    id="order-beneficiary"
                    label={t('form.beneficiary')}
                    autoComplete="name"
                    error={fieldError('beneficiary')}
                    aria-describedby={
                      formState.errors.beneficiary
                        ? 'order-beneficiary-error order-beneficiary-hint'
                        : 'order-beneficiary-hint'
                    }
                    {...register('beneficiary')}
                  />
                  {hint('order-beneficiary-hint', t('form.beneficiaryHint'))}
                </>
              ) : null}
              {kind === 'iban' && latinShown ? (
                <>
                  <Field
                    id="order-beneficiaryLatin"
                    label={t('form.beneficiaryLatin')}
                    autoComplete="off"
                    error={fieldError('beneficiaryLatin')}
                    aria-describedby={
                      formState.errors.beneficiaryLatin
                        ? 'order-beneficiaryLatin-error order-beneficiaryLatin-hint'
                        : 'order-beneficiaryLatin-hint'
                    }
                    {...register('beneficiaryLatin', {
                      onChange: () => {
                        latinEdited.current = true;
                      },
                    })}
                  />
                  {hint('order-beneficiaryLatin-hint', t('form.beneficiaryLatinHint'))}
                </>
              ) : null}
            </>
          )}

          {type === 'buy' && !values.useMyWallet ? (
            <SelectField
              id="order-paymentMethod"
              label={t('form.paymentMethod')}
              error={fieldError('paymentMethod')}
              {...register('paymentMethod')}
            >
              <option value="sepa">{t('methods.sepa')}</option>
              <option value="sepa_instant">{t('methods.sepa_instant')}</option>
            </SelectField>
          ) : null}
          {type === 'buy' && !values.useMyWallet ? (
            <CheckboxField
              id="order-fromBusinessAccount"
              label={t('form.fromBusinessAccount')}
              hint={t('form.fromBusinessAccountHint')}
              error={fieldError('fromBusinessAccount')}
              {...register('fromBusinessAccount')}
            />
          ) : null}
        </div>
        <QuotePanel
          quote={quote}
          from={values.currencyFrom}
          to={values.currencyTo}
          language={language}
          toWallet={values.sendToMyWallet}
        />
      </div>

      {formError === 'bank_verification_required' ? (
        <p role="alert" className="form-error">
          {errorText(formError)} <LocalizedLink to="my_identity">{t('form.verifyBank')}</LocalizedLink>
        </p>
      ) : formError ? (
        <p role="alert" className="form-error">
          {errorText(formError, { retryAfter })}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={!hydrated || formState.isSubmitting}>
        {formState.isSubmitting ? t('form.submitting') : t(`form.submit.${type}`)}
      </button>
    </form>
  );
}

/** The payee name rules (their own chunk) once loaded, for a sell form; null before and for other forms. */
function usePayeeRules(needed: boolean): PayeeRules | null {
  const [rules, setRules] = React.useState<PayeeRules | null>(null);
  React.useEffect(() => {
    if (!needed || rules) return undefined;
    let live = true;
    loadPayeeRules().then(
      (loaded) => live && setRules(loaded),
      () => undefined, // offline: the submit check reports it
    );
    return () => {
      live = false;
    };
  }, [needed, rules]);
  return rules;
}
