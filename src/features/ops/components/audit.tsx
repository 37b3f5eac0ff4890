import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS } from '#domain/audit';
import { Field, SelectField } from '../../../ui/field';
import { saveFile } from '../api/ops';
import { Operator, OutcomeLine, useAction, useOps, TableHead, When } from './parts';
import type { AuditEntry, AuditVerifyResponse } from '#domain/contracts/audit';

type Filter = { actor: string; action: string; target: string; from: string; to: string };
const EMPTY: Filter = { actor: '', action: '', target: '', from: '', to: '' };

/** The groups an action filter can name (`faucet.` takes every faucet action). */
const GROUPS = [...new Set(AUDIT_ACTIONS.map((action) => `${action.split('.')[0]}.`))];

/**
 * The audit trail: every operator action and every read of customers' data, newest first, with
 * filters (who, what, about what, which days), the same rows as CSV, and the check of its hash
 * chain (`npm run ops -- audit:verify`).
 */
export function AuditTrail() {
  const { t } = useTranslation('ops');
  const { api } = useOps();
  const [filter, setFilter] = React.useState<Filter>(EMPTY);
  const [shown, setShown] = React.useState<Filter>(EMPTY);
  const [entries, setEntries] = React.useState<AuditEntry[] | null>(null);
  const [cursor, setCursor] = React.useState<number | null>(null);
  const [check, setCheck] = React.useState<AuditVerifyResponse | null>(null);
  const load = useAction();
  const csv = useAction();
  const verify = useAction();

  const fetchPage = React.useCallback(
    async (next: Filter, after?: number) => {
      const page = await load.run(
        () => api.audit({ ...next, ...(after ? { cursor: after } : {}) }),
        () => '',
      );
      if (!page) return;
      setEntries((current) => (after && current ? [...current, ...page.entries] : page.entries));
      setCursor(page.nextCursor);
      setShown(next);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api],
  );
  React.useEffect(() => {
    void fetchPage(EMPTY);
  }, [fetchPage]);

  const set = (name: keyof Filter) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setFilter((f) => ({ ...f, [name]: event.target.value }));
  const download = () =>
    void csv.run(
      async () => saveFile('muntly-audit.csv', await api.auditCsv(shown), 'text/csv'),
      () => t('audit.downloaded'),
    );
  const checkChain = async () => {
    const result = await verify.run(
      () => api.verifyAudit(),
      () => '',
    );
    if (result) setCheck(result);
  };

  return (
    <>
      <div className="ops-chain">
        <button type="button" className="button" disabled={verify.busy} onClick={() => void checkChain()}>
          {t('audit.verify')}
        </button>
        {check ? (
          check.ok ? (
            <p role="status" className="ops-done">
              {t('audit.holds', { rows: check.rows, id: check.lastId })}{' '}
              <code className="wrap-anywhere">{check.lastHash}</code>
            </p>
          ) : (
            <p role="alert" className="form-error">
              {t('audit.broken', {
                id: check.broken?.id ?? 0,
                reason: check.broken ? t(`audit.breaks.${check.broken.reason}`) : '',
              })}
            </p>
          )
        ) : null}
        {verify.outcome?.kind === 'failed' ? <OutcomeLine outcome={verify.outcome} /> : null}
      </div>
      <form
        className="inline-form ops-search"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void fetchPage(filter);
        }}
      >
        <Field
          id="audit-actor"
          label={t('audit.actor')}
          value={filter.actor}
          onChange={set('actor')}
          autoComplete="off"
          maxLength={200}
        />
        <SelectField id="audit-action" label={t('audit.action')} value={filter.action} onChange={set('action')}>
          <option value="">{t('common.any')}</option>
          {GROUPS.map((group) => (
            <option key={group} value={group}>
              {t('audit.group', { group })}
            </option>
          ))}
          {AUDIT_ACTIONS.map((action) => (
            <option key={action} value={action}>
              {t(`auditActions.${action}` as 'auditActions.payout.review')}
            </option>
          ))}
        </SelectField>
        <Field
          id="audit-target"
          label={t('audit.target')}
          value={filter.target}
          onChange={set('target')}
          autoComplete="off"
          maxLength={200}
        />
        <Field id="audit-from" type="date" label={t('audit.from')} value={filter.from} onChange={set('from')} />
        <Field id="audit-to" type="date" label={t('audit.to')} value={filter.to} onChange={set('to')} />
        <button type="submit" className="button primary" disabled={load.busy}>
          {t('audit.filter')}
        </button>
        <button type="button" className="button" disabled={csv.busy} onClick={download}>
          {t('audit.csv')}
        </button>
      </form>
      <OutcomeLine outcome={load.outcome?.kind === 'failed' ? load.outcome : csv.outcome} />
      {entries ? <AuditTable entries={entries} /> : <p className="muted">{t('common.loading')}</p>}
      {cursor ? (
        <button type="button" className="button" disabled={load.busy} onClick={() => void fetchPage(shown, cursor)}>
          {t('common.loadMore')}
        </button>
      ) : null}
    </>
  );
}

/** A state as the row holds it, on one line: {"status":"open"} → status: open. */
function State({ value }: { value: AuditEntry['before'] }) {
  if (!value) return null;
  const text = Object.entries(value)
    .map(([key, v]) => `${key}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
  return <span className="ops-state">{text}</span>;
}

/** Audit rows, newest first: a table, a card each on a phone. */
export function AuditTable({ entries }: { entries: AuditEntry[] }) {
  const { t } = useTranslation('ops');
  if (entries.length === 0) return <p>{t('audit.none')}</p>;
  return (
    <table className="data-table stack ops-table ops-audit">
      <TableHead
        headings={(['id', 'at', 'actor', 'action', 'target', 'change'] as const).map((c) => t(`audit.columns.${c}`))}
      />
      <tbody>
        {entries.map((e) => (
          <tr key={e.id}>
            <td data-label={t('audit.columns.id')} className="num">
              #{e.id}
            </td>
            <td data-label={t('audit.columns.at')}>
              <When iso={e.at} />
            </td>
            <td data-label={t('audit.columns.actor')}>
              <Operator id={e.actor} />
            </td>
            <td data-label={t('audit.columns.action')}>
              <span>
                {t(`auditActions.${e.action}` as 'auditActions.payout.review', { defaultValue: e.action })}{' '}
                <code className="small nowrap">{e.action}</code>
              </span>
            </td>
            <td data-label={t('audit.columns.target')} data-empty={e.target ? undefined : ''}>
              <code className="wrap-anywhere">{e.target}</code>
            </td>
            <td data-label={t('audit.columns.change')} data-empty={e.before || e.after ? undefined : ''}>
              <span>
                <State value={e.before} />
                {e.before && e.after ? ' → ' : null}
                <State value={e.after} />
              </span>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
