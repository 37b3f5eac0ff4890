import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeCode } from '#domain/codes';
import { checkPhrase, PHRASE_MAX_LENGTH } from '#domain/protection';
import { loadAddressRules } from '../../../app/address-rules';
import { ApiFailure } from '../../../app/api';
import { getAuthConfig } from '../../../app/auth-config';
import { formErrorKey, useErrorText } from '../../../app/error-text';
import { formatDateTime, formatMoney } from '../../../i18n/format';
import { Field } from '../../../ui/field';
import { LocalizedLink } from '../../../ui/localized-link';
import {
  addBookEntry,
  changeSecurity,
  confirmUnfreeze,
  freezeSends,
  getSecurity,
  removeBookEntry,
  requestUnfreeze,
  type SecurityOverview,
} from '../api/wallet';
import { CurrencySelect } from './currency-select';
import { useWalletApi } from './use-wallet-api';
import type { Language } from '#domain/languages';
import '../wallet.css';

/**
 * The security page (issue 19): freeze and unfreeze, allow-list mode, the address book, the
 * anti-phishing phrase (only ever shown masked), two-step login, and recent security events.
 * Every change answers the new state, which replaces the page's.
 */
export function Security() {
  const { t } = useTranslation('wallet');
  const { token, language, errorText } = useWalletApi();
  const [state, setState] = React.useState<SecurityOverview | null>(null);
  const [error, setError] = React.useState<unknown>(null);

  React.useEffect(() => {
    token()
      .then((value) => getSecurity(value, language))
      .then(setState, setError);
  }, [token, language]);

  /** Runs a change; its answer is the new state. A refusal is shown where the change was asked for. */
  const change = React.useCallback(
    async (call: (token: string) => Promise<SecurityOverview>) => {
      setState(await call(await token()));
    },
    [token],
  );

  if (!state) return error ? <p role="alert">{errorText(error)}</p> : <p className="muted">{t('security.loading')}</p>;
  return (
    <div className="security">
      <StatusNotice state={state} language={language} />
      <FreezeSection state={state} change={change} />
      <ModeSection state={state} change={change} />
      <BookSection state={state} onChanged={() => void change((value) => getSecurity(value, language))} />
      <PhraseSection state={state} change={change} />
      <SecondFactorSection state={state} />
      <EventsSection state={state} />
    </div>
  );
}

type Change = (call: (token: string) => Promise<SecurityOverview>) => Promise<void>;

/**
 * Where an event came from, in the page's language: the server stores "email link", "operator",
 * "API", "<browser> on <system>" (protection/service.ts clientOf) or a script's first word.
 */
function clientText(client: string, t: (key: string, options?: Record<string, string>) => string): string {
  if (client === 'email link') return t('security.clients.emailLink');
  if (client === 'operator') return t('security.clients.operator');
  const browserOn = /^(\S+) on (\S+)$/.exec(client);
  return browserOn ? t('security.clients.browserOn', { browser: browserOn[1]!, system: browserOn[2]! }) : client;
}

const when = (iso: string, language: Language) => formatDateTime(new Date(iso), language);

/** What stops sends right now, if anything: a freeze, its unfreeze under way, a cool-down. */
function StatusNotice({ state, language }: { state: SecurityOverview; language: Language }) {
  const { t } = useTranslation('wallet');
  const lines = [
    state.frozen && !state.unfreezesAt ? t('security.frozen') : null,
    state.frozenByOperator ? t('security.frozenByOperator') : null,
    state.frozen && state.unfreezesAt ? t('security.unfreezing', { when: when(state.unfreezesAt, language) }) : null,
    state.sendsPausedUntil ? t('security.paused', { when: when(state.sendsPausedUntil, language) }) : null,
  ].filter(Boolean);
  if (!lines.length) return null;
  return (
    <div className={`security-notice${state.frozen ? ' security-notice-frozen' : ''}`} role="status">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

/** A button that runs a change and shows its refusal beside it. */
function useAction(change: Change) {
  const { language } = useWalletApi();
  const [busy, setBusy] = React.useState(false);
  const [error, setError] = React.useState<unknown>(null);
  const run = async (call: (token: string, language: Language) => Promise<SecurityOverview>) => {
    setBusy(true);
    setError(null);
    try {
      await change((value) => call(value, language));
      return true;
    } catch (e) {
      setError(e);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run, setError };
}

function ActionError({ error }: { error: unknown }) {
  const errorText = useErrorText();
  if (!error) return null;
  return (
    <p role="alert" className="field-error">
      {errorText(error instanceof ApiFailure ? error.code : 'generic', {
        retryAfter: error instanceof ApiFailure ? error.retryAfter : undefined,
      })}
    </p>
  );
}

function FreezeSection({ state, change }: { state: SecurityOverview; change: Change }) {
  const { t } = useTranslation('wallet');
  const action = useAction(change);
  const [code, setCode] = React.useState('');
  const codeError = formErrorKey(
    action.error instanceof ApiFailure && action.error.field === 'code' ? action.error.code : undefined,
  );
  const errorText = useErrorText();
  const confirm = async (event: React.FormEvent) => {
    event.preventDefault();
    const normalized = normalizeCode(code);
    if (!normalized) return action.setError(new ApiFailure(400, 'invalid_code_format', 'code'));
    if (await action.run((value, language) => confirmUnfreeze(value, language, normalized))) setCode('');
  };
  return (
    <section aria-labelledby="security-freeze">
      <h2 id="security-freeze">{t('security.freezeTitle')}</h2>
      {state.frozenByOperator ? (
        // Only Muntly's team lifts its own freeze: the way on is support, not a code.
        <p>
          <LocalizedLink to="support" className="button">
            {t('security.contactSupport')}
          </LocalizedLink>
        </p>
      ) : !state.frozen || state.unfreezesAt ? (
        <>
          <p>{t('security.freezeText')}</p>
          <button
            type="button"
            className="button danger"
            disabled={action.busy}
            onClick={() => void action.run(freezeSends)}
          >
            {t('security.freezeButton')}
          </button>
          <ActionError error={action.error} />
        </>
      ) : (
        <>
          <p>{t('security.unfreezeText')}</p>
          {!state.unfreezeCodeSent ? (
            <button
              type="button"
              className="button"
              disabled={action.busy}
              onClick={() => void action.run(requestUnfreeze)}
            >
              {t('security.unfreezeButton')}
            </button>
          ) : (
            <form onSubmit={(event) => void confirm(event)} noValidate className="identity-form">
              <Field
                id="unfreeze-code"
                label={t('security.unfreezeCode')}
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => setCode(e.target.value)}
                error={errorText(codeError)}
              />
              <button type="submit" className="button primary" disabled={action.busy}>
                {t('security.unfreezeConfirm')}
              </button>
            </form>
          )}
          {codeError ? null : <ActionError error={action.error} />}
        </>
      )}
    </section>
  );
}

function ModeSection({ state, change }: { state: SecurityOverview; change: Change }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const action = useAction(change);
  const offLater = state.allowListOffFrom && Date.parse(state.allowListOffFrom) > Date.now();
  return (
    <section aria-labelledby="security-mode">
      <h2 id="security-mode">{t('security.modeTitle')}</h2>
      <p>{state.allowListOnly ? t('security.modeOn', { hours: state.holdHours }) : t('security.modeOff')}</p>
      {state.allowListOnly ? (
        <>
          <p className="muted small">
            {offLater
              ? t('security.modeOffFrom', { when: when(state.allowListOffFrom!, language) })
              : t('security.modeOffNote')}
          </p>
          <button
            type="button"
            className="button"
            disabled={action.busy || Boolean(offLater)}
            onClick={() => void action.run((value, lng) => changeSecurity(value, lng, { allowListOnly: false }))}
          >
            {t('security.modeSwitchOff')}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button primary"
          disabled={action.busy}
          onClick={() => void action.run((value, lng) => changeSecurity(value, lng, { allowListOnly: true }))}
        >
          {t('security.modeSwitchOn')}
        </button>
      )}
      <ActionError error={action.error} />
    </section>
  );
}

type EntryForm = { currency: string; address: string; label: string; ownWallet: boolean };

function BookSection({ state, onChanged }: { state: SecurityOverview; onChanged: () => void }) {
  const { t } = useTranslation('wallet');
  const { token, language } = useWalletApi();
  const errorText = useErrorText();
  const [form, setForm] = React.useState<EntryForm>({ currency: 'BTC', address: '', label: '', ownWallet: false });
  const [fieldError, setFieldError] = React.useState<{ field: string; code: string } | null>(null);
  const [added, setAdded] = React.useState(false);
  const [busy, setBusy] = React.useState(false);
  const [removeError, setRemoveError] = React.useState<unknown>(null);

  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    setAdded(false);
    if (!(await loadAddressRules()).normalizeAddress(form.currency, form.address))
      return setFieldError({ field: 'address', code: 'invalid_address' });
    setBusy(true);
    setFieldError(null);
    try {
      await addBookEntry(await token(), language, { ...form, label: form.label.trim() || undefined });
      // The next address starts afresh (whose wallet it is is asked anew), in the same currency.
      setForm({ currency: form.currency, address: '', label: '', ownWallet: false });
      setAdded(true);
      onChanged();
    } catch (error) {
      const code = error instanceof ApiFailure ? error.code : 'generic';
      setFieldError({
        field:
          error instanceof ApiFailure && error.field === 'label'
            ? 'label'
            : error instanceof ApiFailure && error.field === 'currency'
              ? 'currency'
              : 'address',
        code,
      });
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: string) => {
    setRemoveError(null);
    try {
      await removeBookEntry(await token(), language, id);
      onChanged();
    } catch (error) {
      setRemoveError(error);
    }
  };
  const errorOf = (field: string) =>
    fieldError?.field === field ? errorText(formErrorKey(fieldError.code)) : undefined;

  return (
    <section aria-labelledby="security-book">
      <h2 id="security-book">{t('security.bookTitle')}</h2>
      {state.addressBook.length === 0 ? <p className="muted">{t('security.bookEmpty')}</p> : null}
      <ul className="book-list">
        {state.addressBook.map((entry) => (
          <li key={entry.id} className="book-entry">
            <div>
              <p>
                <strong>{entry.label ?? entry.currency}</strong>{' '}
                {entry.label ? <span className="muted">{entry.currency}</span> : null}
              </p>
              <code className="address">{entry.address}</code>
              <p className="muted small">
                {entry.internal
                  ? t('security.bookInternal')
                  : entry.ownWallet
                    ? t('security.bookOwn')
                    : t('security.bookOther')}{' '}
                ·{' '}
                <span className={entry.onHold ? 'book-hold' : 'book-ready'}>
                  {entry.onHold
                    ? t('security.bookOnHold', { when: when(entry.usableFrom, language) })
                    : t('security.bookUsable')}
                </span>
              </p>
            </div>
            <button
              type="button"
              className="button small"
              aria-label={t('security.bookRemoveLabel', { address: entry.address })}
              onClick={() => void remove(entry.id)}
            >
              {t('security.bookRemove')}
            </button>
          </li>
        ))}
      </ul>
      <ActionError error={removeError} />
      <h3>{t('security.bookAdd')}</h3>
      <form onSubmit={(event) => void add(event)} noValidate className="identity-form">
        <CurrencySelect
          id="book-currency"
          label={t('security.bookCurrency')}
          value={form.currency}
          onChange={(currency) => setForm({ ...form, currency })}
        />
        <Field
          id="book-address"
          label={t('security.bookAddress')}
          spellCheck={false}
          autoComplete="off"
          value={form.address}
          onChange={(e) => setForm({ ...form, address: e.target.value })}
          error={errorOf('address') ?? errorOf('currency')}
        />
        <Field
          id="book-label"
          label={t('security.bookLabel')}
          maxLength={100}
          value={form.label}
          onChange={(e) => setForm({ ...form, label: e.target.value })}
          error={errorOf('label')}
        />
        <fieldset className="book-holder">
          <legend>{t('security.bookHolder')}</legend>
          {([true, false] as const).map((own) => (
            <label key={String(own)}>
              <input
                type="radio"
                name="book-holder"
                checked={form.ownWallet === own}
                onChange={() => setForm({ ...form, ownWallet: own })}
              />{' '}
              {own ? t('security.bookOwn') : t('security.bookOther')}
            </label>
          ))}
        </fieldset>
        <button type="submit" className="button primary" disabled={busy}>
          {t('security.bookAddButton')}
        </button>
        {added ? (
          <p role="status" className="muted">
            {t('security.bookAdded')}
          </p>
        ) : null}
      </form>
    </section>
  );
}

function PhraseSection({ state, change }: { state: SecurityOverview; change: Change }) {
  const { t } = useTranslation('wallet');
  const errorText = useErrorText();
  const action = useAction(change);
  const [phrase, setPhrase] = React.useState('');
  const [local, setLocal] = React.useState<string | undefined>();
  const apiError =
    action.error instanceof ApiFailure && action.error.field === 'phrase' ? action.error.code : undefined;
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    // The same rules as the API (domain/protection.ts), said before anything is sent.
    const checked = checkPhrase(phrase);
    if (!checked.ok) return setLocal(checked.code);
    setLocal(undefined);
    if (await action.run((value, language) => changeSecurity(value, language, { phrase: checked.phrase })))
      setPhrase('');
  };
  return (
    <section aria-labelledby="security-phrase">
      <h2 id="security-phrase">{t('security.phraseTitle')}</h2>
      <p>{t('security.phraseText')}</p>
      <p>
        <strong>
          {state.phrase ? t('security.phraseSet', { masked: state.phrase.masked }) : t('security.phraseNone')}
        </strong>
      </p>
      <form onSubmit={(event) => void save(event)} noValidate className="identity-form">
        <Field
          id="security-phrase-input"
          label={t('security.phraseLabel')}
          autoComplete="off"
          maxLength={PHRASE_MAX_LENGTH * 2}
          value={phrase}
          onChange={(e) => setPhrase(e.target.value)}
          error={errorText(formErrorKey(local ?? apiError))}
        />
        {state.phrase ? <p className="muted small">{t('security.phraseNote')}</p> : null}
        <div className="button-row">
          <button type="submit" className="button primary" disabled={action.busy}>
            {t('security.phraseSave')}
          </button>
          {state.phrase ? (
            <button
              type="button"
              className="button"
              disabled={action.busy}
              onClick={() => void action.run((value, language) => changeSecurity(value, language, { phrase: null }))}
            >
              {t('security.phraseRemove')}
            </button>
          ) : null}
        </div>
      </form>
      {apiError ? null : <ActionError error={action.error} />}
    </section>
  );
}

/** Two-step login: what it is for; with the local identity provider, where to set it up (with Auth0, it asks at login). */
function SecondFactorSection({ state }: { state: SecurityOverview }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const [setupUrl, setSetupUrl] = React.useState<string | null>(null);
  React.useEffect(() => {
    getAuthConfig().then(
      ({ domain }) =>
        setSetupUrl(
          /^http:\/\/(localhost|127\.0\.0\.1)[:/]/.test(domain) ? `${domain}/mfa?ui_locales=${language}` : null,
        ),
      () => setSetupUrl(null),
    );
  }, [language]);
  return (
    <section aria-labelledby="security-mfa">
      <h2 id="security-mfa">{t('security.mfaTitle')}</h2>
      <p>{t('security.mfaText', { amount: formatMoney(state.secondFactorAboveEur, 'EUR', language) })}</p>
      {setupUrl ? (
        <p>
          <a className="button" href={setupUrl}>
            {t('security.mfaSetup')}
          </a>
        </p>
      ) : null}
    </section>
  );
}

function EventsSection({ state }: { state: SecurityOverview }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  return (
    <section aria-labelledby="security-events">
      <h2 id="security-events">{t('security.eventsTitle')}</h2>
      {state.events.length === 0 ? (
        <p className="muted">{t('security.eventsNone')}</p>
      ) : (
        // A list rather than a table: each event is a sentence, its address and when and from where, which a phone shows whole.
        <ul className="event-list">
          {state.events.map((event) => (
            <li key={`${event.at}-${event.kind}`}>
              <strong>{t(`security.events.${event.kind}`)}</strong>
              {event.detail?.address ? <code className="address">{event.detail.address}</code> : null}
              <span className="muted small">
                <span className="visually-hidden">{t('security.eventWhen')}: </span>
                <time dateTime={event.at}>{when(event.at, language)}</time> ·{' '}
                <span className="visually-hidden">{t('security.eventClient')}: </span>
                {clientText(event.client, t)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
