import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { Field, TextAreaField } from '../../../ui/field';
import { AuditTable } from './audit';
import { OrderTable } from './orders';
import { Facts, Money, OutcomeLine, useAction, useOps, TableHead, When } from './parts';
import type { OpsAccountResponse, OpsAccountSummary } from '#domain/contracts/console';

/**
 * Accounts: search by email or account key; one account with its balances, verification phases
 * (never the identity data itself), recent orders and sends, its audit rows, and the freeze of its
 * sends, with a reason (account protection's routes). `?key=` opens an account.
 */
export function Accounts() {
  const { t } = useTranslation('ops');
  const { api } = useOps();
  const [q, setQ] = React.useState('');
  const [results, setResults] = React.useState<OpsAccountSummary[] | null>(null);
  const [detail, setDetail] = React.useState<OpsAccountResponse | null>(null);
  const search = useAction();
  const open = useAction();

  const show = React.useCallback(
    async (key: string) => {
      const found = await open.run(
        () => api.account(key),
        () => '',
      );
      if (found) {
        setDetail(found);
        window.history.replaceState(null, '', `?key=${encodeURIComponent(found.account.accountKey)}`);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api],
  );
  React.useEffect(() => {
    const key = new URLSearchParams(window.location.search).get('key');
    if (key) void show(key);
  }, [show]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setDetail(null);
    const found = await search.run(
      () => api.accounts(q.trim()),
      () => '',
    );
    if (!found) return;
    // One account found: open it at once.
    if (found.accounts.length === 1) void show(found.accounts[0]!.accountKey);
    else setResults(found.accounts);
  };

  return (
    <>
      <form className="inline-form ops-search" role="search" onSubmit={(event) => void submit(event)}>
        <Field
          id="accounts-q"
          label={t('accounts.q')}
          value={q}
          onChange={(e) => setQ(e.target.value)}
          autoComplete="off"
          required
          maxLength={254}
        />
        <button type="submit" className="button primary" disabled={search.busy || !q.trim()}>
          {t('common.search')}
        </button>
      </form>
      {search.outcome?.kind === 'failed' ? <OutcomeLine outcome={search.outcome} /> : null}
      {open.outcome?.kind === 'failed' ? <OutcomeLine outcome={open.outcome} /> : null}
      {detail ? <AccountDetail detail={detail} reload={() => void show(detail.account.accountKey)} /> : null}
      {results && !detail ? (
        results.length === 0 ? (
          <p>{t('accounts.none')}</p>
        ) : (
          <table className="data-table stack ops-table">
            <TableHead headings={(['key', 'email', 'name', 'since'] as const).map((c) => t(`accounts.columns.${c}`))} />
            <tbody>
              {results.map((a) => (
                <tr key={a.accountKey}>
                  <td data-label={t('accounts.columns.key')}>
                    <button type="button" className="link-button" onClick={() => void show(a.accountKey)}>
                      <code>{a.accountKey}</code>
                    </button>
                  </td>
                  <td data-label={t('accounts.columns.email')} className="wrap-anywhere">
                    {a.email ?? t('common.noEmail')}
                  </td>
                  <td data-label={t('accounts.columns.name')} data-empty={a.displayName ? undefined : ''}>
                    {a.displayName}
                  </td>
                  <td data-label={t('accounts.columns.since')}>
                    <When iso={a.createdAt} dateOnly />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      ) : null}
    </>
  );
}

function AccountDetail({ detail, reload }: { detail: OpsAccountResponse; reload: () => void }) {
  const { t } = useTranslation('ops');
  const { account, balances, verifications, orders, sends, sendsFrozen, audit } = detail;
  const held = balances.balances.filter((b) => !/^0(\.0+)?$/.test(b.balance));
  return (
    <section aria-labelledby="ops-account" className="ops-detail">
      <h2 id="ops-account">{t('accounts.detailTitle', { key: account.accountKey })}</h2>
      <Facts
        items={[
          [t('accounts.columns.email'), account.email ?? t('common.noEmail')],
          [t('accounts.columns.name'), account.displayName],
          [t('accounts.columns.since'), <When key="since" iso={account.createdAt} />],
          [
            t('accounts.sends'),
            sendsFrozen === null
              ? t('accounts.frozenUnknown')
              : sendsFrozen
                ? t('accounts.frozen')
                : t('accounts.notFrozen'),
          ],
        ]}
      />
      <Freeze accountKey={account.accountKey} frozen={sendsFrozen} onDone={reload} />

      <h3>{t('accounts.balances')}</h3>
      {held.length === 0 ? (
        <p>{t('accounts.noBalance')}</p>
      ) : (
        <table className="data-table ops-table">
          <tbody>
            {held.map((b) => (
              <tr key={b.currency}>
                <th scope="row">{b.currency}</th>
                <td className="num">
                  <Money amount={b.balance} currency={b.currency} />
                </td>
                <td className="num muted">
                  <Money amount={b.eurEstimate} currency="EUR" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="small">
        {t('accounts.total')} <Money amount={balances.totalEur} currency="EUR" />
      </p>

      <h3>{t('accounts.verifications')}</h3>
      <table className="data-table stack ops-table">
        <TableHead
          headings={(['kind', 'phase', 'requested', 'submitted', 'verified'] as const).map((c) =>
            t(`accounts.verificationColumns.${c}`),
          )}
        />
        <tbody>
          {verifications.map((v) => (
            <tr key={v.kind}>
              <td data-label={t('accounts.verificationColumns.kind')}>{t(`kinds.${v.kind}`)}</td>
              <td data-label={t('accounts.verificationColumns.phase')}>
                <span>
                  {t(`phases.${v.phase}`)}
                  {v.rejection ? (
                    <span className="small">
                      {' '}
                      · {t('accounts.rejected', { reason: t(`verifications.reasons.${v.rejection.reason}`) })}
                    </span>
                  ) : null}
                </span>
              </td>
              <td data-label={t('accounts.verificationColumns.requested')} data-empty={v.requestedAt ? undefined : ''}>
                <When iso={v.requestedAt} />
              </td>
              <td data-label={t('accounts.verificationColumns.submitted')} data-empty={v.submittedAt ? undefined : ''}>
                <When iso={v.submittedAt} />
              </td>
              <td data-label={t('accounts.verificationColumns.verified')} data-empty={v.verifiedAt ? undefined : ''}>
                <When iso={v.verifiedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      <h3>{t('accounts.orders')}</h3>
      <OrderTable orders={orders} />

      <h3>{t('accounts.recentSends')}</h3>
      {sends.length === 0 ? (
        <p>{t('accounts.noSends')}</p>
      ) : (
        <table className="data-table stack ops-table">
          <TableHead
            headings={(['created', 'status', 'amount', 'address'] as const).map((c) => t(`accounts.sendColumns.${c}`))}
          />
          <tbody>
            {sends.map((s) => (
              <tr key={s.id}>
                <td data-label={t('accounts.sendColumns.created')}>
                  <When iso={s.createdAt} />
                </td>
                <td data-label={t('accounts.sendColumns.status')}>{t(`sendStatus.${s.status}`)}</td>
                <td data-label={t('accounts.sendColumns.amount')} className="num">
                  <Money amount={s.amount} currency={s.currency} />
                </td>
                <td data-label={t('accounts.sendColumns.address')}>
                  <span>
                    <code className="address">{s.address}</code>
                    {s.internal ? <span className="small muted"> · {t('accounts.internal')}</span> : null}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <h3>{t('accounts.audit')}</h3>
      <AuditTable entries={audit} />
    </section>
  );
}

/** Freeze or unfreeze the account's sends (one button, the one that applies), with the reason the trail keeps. */
function Freeze({ accountKey, frozen, onDone }: { accountKey: string; frozen: boolean | null; onDone: () => void }) {
  const { t } = useTranslation('ops');
  const { api } = useOps();
  const action = useAction();
  const [reason, setReason] = React.useState('');
  const act = async (what: 'freeze' | 'unfreeze') => {
    const done = await action.run(
      () => api.freeze(accountKey, what, reason.trim()),
      () => t(what === 'freeze' ? 'accounts.frozeDone' : 'accounts.unfrozeDone'),
    );
    if (done !== undefined) {
      setReason('');
      onDone();
    }
  };
  return (
    <div className="ops-freeze">
      <TextAreaField
        id={`freeze-${accountKey}`}
        label={t('accounts.freezeReason')}
        hint={t('accounts.freezeHint')}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={500}
        rows={2}
      />
      {/* The one action that applies: Unfreeze for frozen sends, else Freeze (also when the state could not be read). */}
      <div className="actions">
        {frozen === true ? (
          <button
            type="button"
            className="button"
            disabled={action.busy || reason.trim().length < 3}
            onClick={() => void act('unfreeze')}
          >
            {t('accounts.unfreeze')}
          </button>
        ) : (
          <button
            type="button"
            className="button"
            disabled={action.busy || reason.trim().length < 3}
            onClick={() => void act('freeze')}
          >
            {t('accounts.freeze')}
          </button>
        )}
      </div>
      <OutcomeLine outcome={action.outcome} />
    </div>
  );
}
