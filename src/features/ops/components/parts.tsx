import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { errorKeyOf, useErrorText } from '../../../app/error-text';
import { formatDate, formatDateTime, formatMoney } from '../../../i18n/format';
import { usePageLanguage } from '../../../ui/localized-link';
import { opsApi, type OpsApi } from '../api/ops';
import type { OpsQueues } from '#domain/contracts/console';
import type { Language } from '#domain/languages';

/**
 * What every section of the console shares: the API with the operator's token, the page language,
 * who the operator is (their token's subject, as the audit trail and four eyes name them), the
 * queues' counts and a way to refresh them after an action.
 */
export type OpsContextValue = {
  api: OpsApi;
  language: Language;
  /** The logged-in operator's subject (null when the login provider did not say). */
  operator: string | null;
  queues: OpsQueues | null;
  refreshQueues: () => void;
};

export const OpsContext = React.createContext<OpsContextValue | null>(null);

export function useOps(): OpsContextValue {
  const value = React.useContext(OpsContext);
  if (!value) throw new Error('useOps outside the operator console');
  return value;
}

/** The console's API for a token source, kept while the token source and the language stay. */
export function useOpsApi(token: () => Promise<string>): OpsApi {
  const language = usePageLanguage();
  return React.useMemo(() => opsApi(token, language), [token, language]);
}

type Outcome = { kind: 'done'; text: string } | { kind: 'failed'; text: string } | null;

/**
 * One action of a section (approve, assign, upload …): busy while it runs, then what it did or
 * what went wrong, in the page language. `run` answers whether it succeeded.
 */
export function useAction() {
  const errorText = useErrorText();
  const [busy, setBusy] = React.useState(false);
  const [outcome, setOutcome] = React.useState<Outcome>(null);
  const run = React.useCallback(
    async <T,>(action: () => Promise<T>, done: (result: T) => string): Promise<T | undefined> => {
      setBusy(true);
      setOutcome(null);
      try {
        const result = await action();
        setOutcome({ kind: 'done', text: done(result) });
        return result;
      } catch (error) {
        setOutcome({ kind: 'failed', text: errorText(errorKeyOf(error)) });
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [errorText],
  );
  return { busy, outcome, run, clear: () => setOutcome(null) };
}

/**
 * A queue's items, and those the operator has just dealt with: the queue loads again after each
 * action and no longer holds them, but they stay on the page, with what was done, until the
 * operator leaves it.
 */
export function useKeptItems<T>(items: T[] | undefined, keyOf: (item: T) => string) {
  const [kept, setKept] = React.useState<T[]>([]);
  const keep = React.useCallback(
    (item: T) => setKept((current) => [...current.filter((k) => keyOf(k) !== keyOf(item)), item]),
    [keyOf],
  );
  const fresh = new Set((items ?? []).map(keyOf));
  return { shown: items ? [...items, ...kept.filter((item) => !fresh.has(keyOf(item)))] : null, keep };
}

/** An action's result: announced politely when it worked, at once when it did not. */
export function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  return outcome.kind === 'done' ? (
    <p role="status" className="ops-done">
      {outcome.text}
    </p>
  ) : (
    <p role="alert" className="form-error">
      {outcome.text}
    </p>
  );
}

/** A load that failed: what went wrong, and a way to try again. */
export function LoadFailed({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation('ops');
  const errorText = useErrorText();
  return (
    <div role="alert">
      <p className="form-error">{errorText(errorKeyOf(error))}</p>
      <button type="button" className="button small" onClick={retry}>
        {t('common.retry')}
      </button>
    </div>
  );
}

/** A moment, in the page language, with its exact time for a machine. */
export function When({ iso, dateOnly = false }: { iso: string | null; dateOnly?: boolean }) {
  const language = usePageLanguage();
  if (!iso) return null;
  return (
    <time dateTime={iso}>
      {dateOnly
        ? formatDate(new Date(iso), language, { utc: true })
        : formatDateTime(new Date(iso), language, { seconds: true })}
    </time>
  );
}

/** An amount with its currency, as the site writes it in the page language. */
export function Money({ amount, currency }: { amount: string | null; currency: string | null }) {
  const language = usePageLanguage();
  if (amount === null || !currency) return null;
  return <span className="num">{formatMoney(amount, currency, language)}</span>;
}

/** An operator as the trail names them: "you" for the one logged in. */
export function Operator({ id }: { id: string | null }) {
  const { t } = useTranslation('ops');
  const { operator } = useOps();
  if (!id) return null;
  if (id === operator) return <strong>{t('common.you')}</strong>;
  return <code className="wrap-anywhere">{id}</code>;
}

/**
 * A status or reason code as the operator reads it (`awaiting_approval` → "Waiting for approval");
 * parts joined with " · " each; a code the console has no words for stays as it is.
 */
export function useCodeText() {
  const { t } = useTranslation('ops');
  return React.useCallback(
    (text: string) =>
      text
        .split(' · ')
        .map((part) => t(`codes.${part}` as 'codes.pending', { defaultValue: part }))
        .join(' · '),
    [t],
  );
}

/** Label and value pairs (an order's or an account's facts): side by side, stacked on a phone. */
export function Facts({ items }: { items: [string, React.ReactNode][] }) {
  return (
    <dl className="identity-data ops-facts">
      {items
        .filter(([, value]) => value !== null && value !== undefined && value !== '')
        .map(([label, value]) => (
          <React.Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </React.Fragment>
        ))}
    </dl>
  );
}

/** A console table's header row, one column heading each. */
export function TableHead({ headings }: { headings: readonly string[] }) {
  return (
    <thead>
      <tr>
        {headings.map((heading, i) => (
          <th key={i} scope="col">
            {heading}
          </th>
        ))}
      </tr>
    </thead>
  );
}
