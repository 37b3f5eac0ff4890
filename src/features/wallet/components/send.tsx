import * as React from 'react';
import { Controller, useForm, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { normalizeCode } from '#domain/codes';
import { knownDecimals } from '#domain/currencies';
import { eurValueMinor } from '#domain/eur-value';
import { decimalToMinor, eur, minorToDecimal, normalizeAmountInput } from '#domain/money';
import { externalNetworkFeeMinor, maxSendableMinor } from '#domain/wallet';
import { loadAddressRules, useAddressRules } from '../../../app/address-rules';
import { ApiFailure } from '../../../app/api';
import { errorKeyOf, formErrorKey, useErrorText } from '../../../app/error-text';
import { useSession } from '../../../app/session';
import { usePolled } from '../../../app/use-polled';
import { formatDateTime, formatMoney, formatNumber, numberFormat } from '../../../i18n/format';
import { Field } from '../../../ui/field';
import { LocalizedLink } from '../../../ui/localized-link';
import { useDraft } from '../../../ui/use-draft';
import {
  confirmSend,
  getBalances,
  getRates,
  getSecurity,
  getSend,
  getSendFee,
  startSend,
  type AddressBookEntry,
  type SecurityOverview,
  type Send as SendView,
} from '../api/wallet';
import { BankGate, BankRequired } from './bank-required';
import { CurrencySelect } from './currency-select';
import { RATES_REFRESH_MS, WALLET_REFRESH_MS } from './refresh';
import { SendReview } from './send-review';
import { useWalletApi } from './use-wallet-api';
import type { Language } from '#domain/languages';
import '../wallet.css';

const SendStatus = React.lazy(() => import('./send-status').then((m) => ({ default: m.SendStatus })));
const SendPath = React.lazy(() => import('./send-path').then((m) => ({ default: m.SendPath })));

type SendForm = { currency: string; address: string; amount: string; label: string };

/** An amount in minor units as a person of this language types it: "0,00998" in German, no trailing zeros. */
export function amountInputValue(minor: bigint, decimals: number, language: Language): string {
  const plain = minorToDecimal(minor, decimals)
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
  const mark =
    numberFormat(language)
      .formatToParts(1.5)
      .find((part) => part.type === 'decimal')?.value ?? '.';
  return plain.replace('.', mark);
}

/**
 * Send: first, while the account has not walked it, the whole path of a first send (issue 35);
 * then (with a verified bank account) the details (checked here and by the API), the emailed
 * code, then the send's status until it is paid out.
 */
export function Send() {
  const overview = useSecurityOverview();
  return (
    <>
      {/* The path a new account walks shows only until an address is usable: its code loads on its own. */}
      <React.Suspense fallback={null}>
        <SendPath overview={overview} />
      </React.Suspense>
      <BankGate>
        <SendDetails overview={overview} />
      </BankGate>
    </>
  );
}

/** The account's protection (address book, hold), asked once for the page; null until it answers or when it cannot. */
function useSecurityOverview(): SecurityOverview | null {
  const { token, language } = useWalletApi();
  const [overview, setOverview] = React.useState<SecurityOverview | null>(null);
  React.useEffect(() => {
    let live = true;
    void token()
      .then((value) => getSecurity(value, language))
      .then(
        (answer) => live && setOverview(answer),
        () => undefined,
      );
    return () => {
      live = false;
    };
  }, [token, language]);
  return overview;
}

/** One step of the path to a first send, and where the account stands on it. */
/** The address book as choices: picking one fills in its currency and address (issue 35). */
function SavedAddresses({
  overview,
  onPick,
}: {
  overview: SecurityOverview;
  onPick: (entry: AddressBookEntry) => void;
}) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  if (overview.addressBook.length === 0) return null;
  const now = Date.now();
  const when = (iso: string) => formatDateTime(new Date(iso), language);
  return (
    <p className="field">
      <label htmlFor="send-saved">{t('send.saved')}</label>
      <select
        id="send-saved"
        value=""
        onChange={(event) => {
          const entry = overview.addressBook.find((e) => e.id === event.target.value);
          if (entry) onPick(entry);
        }}
      >
        <option value="">{t('send.savedChoose')}</option>
        {overview.addressBook.map((entry) => {
          const name = `${entry.label ?? shortAddress(entry.address)} · ${entry.currency}`;
          return (
            <option key={entry.id} value={entry.id}>
              {Date.parse(entry.usableFrom) > now
                ? t('send.savedOnHold', { name, when: when(entry.usableFrom) })
                : name}
            </option>
          );
        })}
      </select>
    </p>
  );
}

const shortAddress = (address: string) =>
  address.length > 16 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;

function SendDetails({ overview }: { overview: SecurityOverview | null }) {
  const { t } = useTranslation('wallet');
  const { token, language } = useWalletApi();
  const errorText = useErrorText();
  const [send, setSend] = React.useState<SendView | null>(null);
  const [bankMissing, setBankMissing] = React.useState(false);
  // One key per attempt: a double click or a retry after a lost answer starts one send.
  const idempotencyKey = React.useRef(crypto.randomUUID());
  const form = useForm<SendForm>({ defaultValues: { currency: 'BTC', address: '', amount: '', label: '' } });
  // What was typed survives a language switch (a new page) until the send starts; the code form keeps no draft.
  const draft = useDraft('wallet-send', form);
  const codeForm = useForm<{ code: string }>();
  const balances = usePolled(async () => getBalances(await token(), language), language, WALLET_REFRESH_MS);
  // Confirming needs a recent login (and above a limit a second factor): the page logs the user in
  // again and comes back to this send (?send=<id>), whose emailed code still works.
  const [stepUp, setStepUp] = React.useState<'login_required_recent' | 'second_factor_required' | null>(null);
  React.useEffect(() => {
    const id = new URLSearchParams(window.location.search).get('send');
    if (!id) return;
    void token()
      .then((value) => getSend(value, language, id))
      .then(setSend, () => undefined);
  }, [token, language]);

  const submit = form.handleSubmit(async (values) => {
    if (!(await loadAddressRules()).normalizeAddress(values.currency, values.address))
      return form.setError('address', { message: 'invalid_address' });
    const amount = normalizeAmountInput(values.amount);
    // More than the whole balance cannot be sent (the network fee, which a send to another Muntly wallet does not pay, the API checks).
    const minor = decimalToMinor(amount, knownDecimals(values.currency));
    const available = availableMinor(balances.data?.balances, values.currency);
    if (minor !== null && available !== null && minor > available)
      return form.setError('amount', { message: 'insufficient_balance' });
    try {
      setSend(
        await startSend(
          await token(),
          language,
          { ...values, amount, label: values.label || undefined },
          idempotencyKey.current,
        ),
      );
      draft.clear();
    } catch (error) {
      if (error instanceof ApiFailure && error.code === 'bank_verification_required') return setBankMissing(true);
      const field =
        error instanceof ApiFailure && ['address', 'amount', 'currency'].includes(error.field ?? '')
          ? (error.field as keyof SendForm)
          : 'amount';
      form.setError(field, { message: errorKeyOf(error) });
    }
  });

  const confirm = codeForm.handleSubmit(async ({ code }) => {
    const normalized = normalizeCode(code);
    if (!normalized) return codeForm.setError('code', { message: 'invalid_code_format' });
    try {
      setSend(await confirmSend(await token(), language, send!.id, normalized));
      setStepUp(null);
      balances.reload();
    } catch (error) {
      if (
        error instanceof ApiFailure &&
        (error.code === 'login_required_recent' || error.code === 'second_factor_required')
      )
        return setStepUp(error.code);
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
  if (send && send.status !== 'awaiting_code')
    return (
      <React.Suspense fallback={null}>
        <SendStatus send={send} onAnother={again} />
      </React.Suspense>
    );
  if (send) {
    const err = message(codeForm.formState.errors.code?.message);
    return (
      <>
        <SendReview send={send} language={language} />
        {send.internal ? <p>{t('send.internal')}</p> : null}
        <p>{t('send.codeSent')}</p>
        {stepUp ? <StepUp reason={stepUp} sendId={send.id} /> : null}
        <form onSubmit={confirm} noValidate className="identity-form">
          <Field
            id="send-code"
            label={t('send.code')}
            autoComplete="one-time-code"
            error={err}
            {...codeForm.register('code', { required: true })}
          />
          <button type="submit" className="button primary" disabled={codeForm.formState.isSubmitting}>
            {t('send.confirm')}
          </button>
        </form>
      </>
    );
  }
  const bookError = ['address_not_in_book', 'address_on_hold'].includes(form.formState.errors.address?.message ?? '');
  const field = (name: keyof SendForm, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <Field
      id={`send-${name}`}
      label={t(`send.${name}`)}
      error={message(form.formState.errors[name]?.message)}
      {...props}
      {...form.register(name, { required: name !== 'label' })}
    />
  );
  return (
    <>
      {overview ? <FirstSendNotice overview={overview} /> : null}
      <form onSubmit={submit} noValidate className="identity-form">
        <Controller
          control={form.control}
          name="currency"
          render={({ field }) => (
            <CurrencySelect
              id="send-currency"
              label={t('send.currency')}
              name={field.name}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              ref={field.ref}
            />
          )}
        />
        {overview ? (
          <SavedAddresses
            overview={overview}
            onPick={(entry) => {
              form.setValue('currency', entry.currency, { shouldDirty: true });
              form.setValue('address', entry.address, { shouldDirty: true });
              form.clearErrors('address');
            }}
          />
        ) : null}
        {field('address', { spellCheck: false, autoComplete: 'off' })}
        {bookError ? (
          <p className="small">
            <LocalizedLink to="wallet_security">{t('sendStepUp.book')}</LocalizedLink>
          </p>
        ) : null}
        {field('amount', {
          inputMode: 'decimal',
          autoComplete: 'off',
          'aria-describedby': [form.formState.errors.amount ? 'send-amount-error' : '', 'send-available send-estimate']
            .join(' ')
            .trim(),
        })}
        <AmountHelp form={form} balances={balances.data?.balances} />
        {field('label', { maxLength: 100 })}
        <button type="submit" className="button primary" disabled={form.formState.isSubmitting}>
          {form.formState.isSubmitting ? t('send.sending') : t('send.continue')}
        </button>
      </form>
    </>
  );
}

/**
 * When the account cannot send anything yet, said before the form is filled in (issue 34): a new
 * account has allow-list mode on from its creation, and every address-book entry — another
 * Muntly wallet too — waits its hold, so its first hours send nothing. Shown while the mode's
 * first hold runs and no entry is usable, with the earliest moment a send can leave (the first
 * entry's, or the hold's end), in the user's language and time zone.
 */
export function firstSendAt(overview: SecurityOverview, now = Date.now()): Date | null {
  if (!overview.allowListOnly || !overview.allowListOffFrom) return null;
  const holdEnds = Date.parse(overview.allowListOffFrom);
  if (holdEnds <= now || overview.addressBook.some((entry) => !entry.onHold)) return null;
  const firstEntry = Math.min(...overview.addressBook.map((entry) => Date.parse(entry.usableFrom)));
  return new Date(Math.min(holdEnds, firstEntry));
}

function FirstSendNotice({ overview }: { overview: SecurityOverview }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const at = firstSendAt(overview);
  if (!at) return null;
  return (
    <div className="security-notice" role="note" data-testid="first-send-notice">
      <p>
        {t('send.newAccount', {
          when: formatDateTime(at, language),
          hours: formatNumber(overview.holdHours, language),
        })}
      </p>
      <p>
        <LocalizedLink to="wallet_security">{t('send.newAccountBook')}</LocalizedLink>
      </p>
    </div>
  );
}

/**
 * Why the send cannot be confirmed with this login, and the way on: log in again (the SDK's
 * max_age: the provider asks for the password, and the one-time password when it is set up),
 * coming back to this send.
 */
function StepUp({ reason, sendId }: { reason: 'login_required_recent' | 'second_factor_required'; sendId: string }) {
  const { t } = useTranslation('wallet');
  const { loginWithRedirect } = useSession();
  const again = () =>
    loginWithRedirect({
      authorizationParams: { max_age: 0 },
      appState: { returnTo: `${window.location.pathname}?send=${sendId}` },
    });
  return (
    <div className="security-notice" role="alert">
      <p>{reason === 'login_required_recent' ? t('sendStepUp.loginAgain') : t('sendStepUp.secondFactor')}</p>
      {reason === 'second_factor_required' ? (
        <p>
          <LocalizedLink to="wallet_security">{t('sendStepUp.securityPage')}</LocalizedLink>
        </p>
      ) : null}
      <p>
        <button type="button" className="button primary" onClick={() => void again()}>
          {t('sendStepUp.loginAgainButton')}
        </button>
      </p>
    </div>
  );
}

type BalanceRow = { currency: string; balance: string };

function availableMinor(balances: BalanceRow[] | undefined, currency: string): bigint | null {
  const row = balances?.find((b) => b.currency === currency);
  return row ? decimalToMinor(row.balance, knownDecimals(currency)) : null;
}

/** How long typing pauses before the address's fee is asked. */
export const ADDRESS_PAUSE_MS = 400;

/**
 * The network fee of a send to the typed address, in minor units: the server's answer (none to
 * another Muntly wallet), asked once the address is valid and typing paused; until then, and when
 * it cannot be asked, the fee to an external address.
 */
function useNetworkFee(currency: string, addressText: string): { fee: bigint; internal: boolean } {
  const { token, language } = useWalletApi();
  const rules = useAddressRules(Boolean(addressText));
  const address = rules?.normalizeAddress(currency, addressText ?? '') ?? null;
  const key = address ? `${currency}:${address}` : null;
  const [answer, setAnswer] = React.useState<{ key: string; fee: bigint; internal: boolean } | null>(null);
  React.useEffect(() => {
    if (!key || !address) return;
    let current = true;
    const timer = setTimeout(() => {
      token()
        .then((value) => getSendFee(value, language, { currency, address }))
        .then(
          (answered) =>
            current &&
            setAnswer({
              key,
              fee: decimalToMinor(answered.networkFee, knownDecimals(currency)) ?? 0n,
              internal: answered.internal,
            }),
          () => undefined, // the send itself says what is wrong with the address
        );
    }, ADDRESS_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, address, currency, token, language]);
  return answer && answer.key === key ? answer : { fee: externalNetworkFeeMinor(currency), internal: false };
}

/** Under the amount: what is available with a "Max" button, then the network fee and the amount's value in euros. */
function AmountHelp({ form, balances }: { form: UseFormReturn<SendForm>; balances: BalanceRow[] | undefined }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const rates = usePolled(() => getRates(language), language, RATES_REFRESH_MS);
  const [currency, amountText, address] = form.watch(['currency', 'amount', 'address']);
  const decimals = knownDecimals(currency);
  const available = availableMinor(balances, currency);
  const { fee, internal } = useNetworkFee(currency, address);
  const max = available === null ? null : maxSendableMinor(available, fee);
  const amount = amountText ? decimalToMinor(normalizeAmountInput(amountText), decimals) : null;
  const rate = rates.data?.rates[currency];
  const value = amount !== null && rate ? eur(eurValueMinor(amount, decimals, rate)) : null;
  const fillMax = () => {
    if (max === null) return;
    form.setValue('amount', amountInputValue(max, decimals, language), { shouldDirty: true });
    form.clearErrors('amount');
  };
  return (
    <div className="send-amount-help">
      <p className="send-available">
        <span id="send-available">
          {t('send.available', {
            amount: available === null ? '…' : formatMoney(minorToDecimal(available, decimals), currency, language),
          })}
        </span>{' '}
        <button type="button" className="button small" onClick={fillMax} disabled={!max}>
          {t('send.max')}
        </button>
      </p>
      <p className="send-estimate muted small" id="send-estimate">
        <span data-testid="send-fee">
          {t(internal ? 'send.feeInternal' : 'send.fee', {
            fee: formatMoney(minorToDecimal(fee, decimals), currency, language),
          })}
        </span>
        {value !== null ? <span>{t('send.eurValue', { amount: formatMoney(value, 'EUR', language) })}</span> : null}
      </p>
    </div>
  );
}
