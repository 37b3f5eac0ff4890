import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '#domain/languages';
import { usePolled } from '../../../app/use-polled';
import { formatMoney, formatNumber } from '../../../i18n/format';
import { opsRoutes } from '../../../i18n/ops-routes';
import { saveFile } from '../api/ops';
import { LoadFailed, Money, Operator, OutcomeLine, useAction, useOps, TableHead, When } from './parts';
import type { ExportPayoutsResponse, ImportStatementResponse } from '#domain/contracts/bank';

/**
 * The operator's day at the bank: the statement in (camt.053, or a camt.054 notification, as
 * downloaded from the bank), the payouts file out (pain.001, to upload to the bank once), and the
 * files made so far.
 */
export function Bank() {
  return (
    <>
      <StatementUpload />
      <PayoutsExport />
    </>
  );
}

function StatementUpload() {
  const { t } = useTranslation('ops');
  const { api, refreshQueues, language } = useOps();
  const action = useAction();
  const [file, setFile] = React.useState<File | null>(null);
  const [result, setResult] = React.useState<ImportStatementResponse | null>(null);
  // How far the server got, as it commits (null: not importing); what the bar shows is booked.
  const [progress, setProgress] = React.useState<{ done: number; total: number } | null>(null);
  const upload = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!file) return;
    setResult(null);
    setProgress({ done: 0, total: 0 });
    // The bytes as the bank wrote them: the server reads the encoding the file declares.
    const imported = await action.run(
      async () => api.importStatement(await file.arrayBuffer(), setProgress),
      (r) =>
        t('bank.imported', {
          version: r.version,
          booked: r.counts.booked,
          unmatched: r.counts.unmatched,
          duplicate: r.counts.duplicate,
          completed: r.counts.payout_completed,
        }),
    );
    setProgress(null);
    if (imported) {
      setResult(imported);
      refreshQueues();
    }
  };
  return (
    <section aria-labelledby="ops-statement">
      <h2 id="ops-statement">{t('bank.statement.title')}</h2>
      <p className="muted">{t('bank.statement.lead')}</p>
      <form className="inline-form" onSubmit={(event) => void upload(event)}>
        <div className="field">
          <label htmlFor="statement-file">{t('bank.statement.file')}</label>
          <input
            id="statement-file"
            type="file"
            accept=".xml,application/xml,text/xml"
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
        </div>
        <button type="submit" className="button primary" disabled={action.busy || !file}>
          {t('bank.statement.upload')}
        </button>
      </form>
      {progress ? (
        <div className="ops-progress">
          <progress
            id="statement-progress"
            aria-label={t('bank.statement.progressLabel')}
            max={progress.total || undefined}
            value={progress.total ? progress.done : undefined}
          />
          <p aria-live="polite" className="small">
            {progress.total
              ? t('bank.statement.progress', {
                  done: formatNumber(progress.done, language),
                  total: formatNumber(progress.total, language),
                })
              : t('bank.statement.starting')}
          </p>
        </div>
      ) : null}
      <OutcomeLine outcome={action.outcome} />
      {result && result.otherAccounts.length > 0 ? (
        <div>
          <p>{t('bank.statement.otherAccounts')}</p>
          <ul>
            {result.otherAccounts.map((other, index) => (
              <li key={`${other.statementId ?? ''}:${index}`}>
                {t('bank.statement.otherAccount', {
                  iban: other.iban ?? t('bank.statement.noIban'),
                  id: other.statementId ?? t('bank.statement.noId'),
                  payments: formatNumber(other.payments, language),
                })}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {result && result.counts.unmatched > 0 ? (
        <p>
          <Link to={localizePath(opsRoutes.ops_unmatched, language)}>{t('bank.statement.toUnmatched')}</Link>
        </p>
      ) : null}
      {result ? (
        <table className="data-table stack ops-table">
          <TableHead
            headings={(['entry', 'amount', 'outcome', 'what'] as const).map((c) => t(`bank.statement.columns.${c}`))}
          />
          <tbody>
            {result.lines.map((line, index) => (
              <tr key={`${line.entryRef}:${index}`}>
                <td data-label={t('bank.statement.columns.entry')}>
                  <code className="wrap-anywhere">{line.entryRef}</code>
                </td>
                <td data-label={t('bank.statement.columns.amount')} className="num">
                  <span>
                    {line.direction === 'debit' ? '−' : '+'}
                    <Money amount={line.amount} currency={line.currency} />
                  </span>
                </td>
                <td data-label={t('bank.statement.columns.outcome')}>{t(`bank.outcomes.${line.outcome}`)}</td>
                <td
                  data-label={t('bank.statement.columns.what')}
                  data-empty={line.reference || line.reason ? undefined : ''}
                >
                  <span>
                    {line.reference ? <code className="wrap-anywhere">{line.reference}</code> : null}
                    {line.reason ? <span className="small muted"> {line.reason}</span> : null}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

function PayoutsExport() {
  const { t } = useTranslation('ops');
  const { api, language } = useOps();
  const exports = usePolled(() => api.bankExports(), 'exports');
  const action = useAction();
  const again = useAction();
  const [skipped, setSkipped] = React.useState<ExportPayoutsResponse['skipped']>([]);

  const make = async () => {
    const made = await action.run(
      () => api.exportPayouts(),
      (r) =>
        r.export
          ? t('bank.export.made', {
              file: `${r.export.messageId}.xml`,
              count: r.export.payouts,
              total: formatMoney(r.export.total, 'EUR', language),
            })
          : t('bank.export.nothingDue'),
    );
    if (!made) return;
    setSkipped(made.skipped);
    if (made.export && made.xml) saveFile(`${made.export.messageId}.xml`, made.xml, 'application/xml');
    exports.reload();
  };
  const download = (id: string, messageId: string) =>
    void again.run(
      async () => saveFile(`${messageId}.xml`, await api.bankExportFile(id), 'application/xml'),
      () => t('bank.export.downloadedAgain', { file: `${messageId}.xml` }),
    );

  return (
    <section aria-labelledby="ops-export">
      <h2 id="ops-export">{t('bank.export.title')}</h2>
      <p className="muted">{t('bank.export.lead')}</p>
      <button type="button" className="button primary" disabled={action.busy} onClick={() => void make()}>
        {t('bank.export.make')}
      </button>
      <OutcomeLine outcome={action.outcome} />
      {skipped.length > 0 ? (
        <ul>
          {skipped.map((s) => (
            <li key={s.payoutId}>{t('bank.export.skipped', { id: s.payoutId, reason: s.reason })}</li>
          ))}
        </ul>
      ) : null}
      <h3>{t('bank.export.past')}</h3>
      {exports.error && !exports.data ? <LoadFailed error={exports.error} retry={exports.reload} /> : null}
      {exports.data && exports.data.exports.length === 0 ? <p>{t('bank.export.none')}</p> : null}
      {exports.data && exports.data.exports.length > 0 ? (
        <table className="data-table stack ops-table">
          <TableHead
            headings={(['made', 'file', 'payouts', 'total', 'by', 'download'] as const).map((c) =>
              t(`bank.export.columns.${c}`),
            )}
          />
          <tbody>
            {exports.data.exports.map((e) => (
              <tr key={e.id}>
                <td data-label={t('bank.export.columns.made')}>
                  <When iso={e.createdAt} />
                </td>
                <td data-label={t('bank.export.columns.file')}>
                  <code className="wrap-anywhere">{e.messageId}</code>
                </td>
                <td data-label={t('bank.export.columns.payouts')} className="num">
                  {e.payouts}
                </td>
                <td data-label={t('bank.export.columns.total')} className="num">
                  <Money amount={e.total} currency="EUR" />
                </td>
                <td data-label={t('bank.export.columns.by')}>
                  <Operator id={e.createdBy} />
                </td>
                <td data-label={t('bank.export.columns.download')} className="ops-action">
                  <button
                    type="button"
                    className="button small"
                    disabled={again.busy}
                    onClick={() => download(e.id, e.messageId)}
                  >
                    {t('bank.export.downloadAgain')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <OutcomeLine outcome={again.outcome} />
    </section>
  );
}
