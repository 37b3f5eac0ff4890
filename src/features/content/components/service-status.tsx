import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { publicRequest } from '../api/public-api';
import { usePolled } from '../api/use-polled';
import { formatTime } from '../format';
import type { ServiceStatus, WorkerStatus } from '#domain/contracts/support';
import type { Language } from '#domain/languages';

/** GET /api/status (domain/contracts/support.ts): what the status page shows. */
type State = 'ok' | 'down' | 'delayed' | 'checking';
type Row = { key: 'website' | 'api' | 'database' | 'orders' | 'payouts'; state: State };

export const STATUS_REFRESH_MS = 30_000;

/**
 * The live status of the website, the API, the database and the payout worker, checked every
 * 30 seconds. The page itself loaded, so the website is up; an API that does not answer is down,
 * and then nothing behind it can be known.
 */
export function ServiceStatusList({ language }: { language: Language }) {
  const { t } = useTranslation('info');
  const { data, failed, reload } = usePolled(
    () => publicRequest<ServiceStatus>(language, '/api/status'),
    language,
    STATUS_REFRESH_MS,
  );
  const [lastChecked, setLastChecked] = React.useState<Date | null>(null);
  React.useEffect(() => {
    if (data || failed) setLastChecked(new Date());
  }, [data, failed]);

  // Without an answer from the API nothing behind it can be known: shown as not available.
  const worker = (w?: WorkerStatus): State =>
    failed ? 'down' : !w ? 'checking' : w.status === 'unknown' ? 'down' : w.status;
  const rows: Row[] = [
    { key: 'website', state: 'ok' },
    { key: 'api', state: failed ? 'down' : data ? 'ok' : 'checking' },
    { key: 'database', state: failed ? 'down' : data ? data.database : 'checking' },
    { key: 'orders', state: worker(data?.workers.orders) },
    { key: 'payouts', state: worker(data?.workers.payouts) },
  ];
  const allOk = !failed && data !== null && rows.every((row) => row.state === 'ok');

  return (
    <section aria-labelledby="status-heading">
      <h2 id="status-heading">{t('status.heading')}</h2>
      <p role="status" className={allOk ? 'status-ok' : data || failed ? 'status-down' : 'status-checking'}>
        {!data && !failed ? t('status.checking') : allOk ? t('status.allOk') : t('status.problem')}
      </p>
      <ul className="status-list">
        {rows.map((row) => (
          <li key={row.key} data-component={row.key}>
            <span>
              <strong>{t(`status.components.${row.key}.name`)}</strong>
              <br />
              <span className="small muted">{t(`status.components.${row.key}.text`)}</span>
            </span>
            <span className={`status-${row.state === 'delayed' ? 'down' : row.state}`}>
              {t(`status.states.${row.state}`)}
            </span>
          </li>
        ))}
      </ul>
      {data && data.workers.orders.waiting > 0 ? (
        <p>{t('status.ordersWaiting', { count: data.workers.orders.waiting })}</p>
      ) : null}
      {data && data.workers.payouts.waiting > 0 ? (
        <p>{t('status.payoutsWaiting', { count: data.workers.payouts.waiting })}</p>
      ) : null}
      <p className="muted">
        {lastChecked ? t('status.checkedAt', { time: formatTime(lastChecked, language) }) : null}{' '}
        <button type="button" className="button small" onClick={reload}>
          {t('status.refresh')}
        </button>
      </p>
    </section>
  );
}
