import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { localizePath } from '#domain/languages';
import { ORDER_STATUSES, ORDER_TYPES } from '#domain/orders';
import { opsRoutes } from '../../../i18n/ops-routes';
import { Field, SelectField } from '../../../ui/field';
import { Facts, Money, Operator, useAction, useCodeText, useOps, TableHead, When } from './parts';
import type { OpsOrderResponse, OpsOrdersQuery, OpsOrderSummary, OrderEvent } from '#domain/contracts/console';

/** The search form's fields; an empty one does not filter. */
type Filter = { q: string; status: string; type: string; from: string; to: string };
const EMPTY: Filter = { q: '', status: '', type: '', from: '', to: '' };

/** An order page's address in the console: `?reference=` opens that order. */
export const orderLink = (language: string, reference: string) =>
  `${localizePath(opsRoutes.ops_orders, language as 'en')}?reference=${encodeURIComponent(reference)}`;

/**
 * Orders: search by reference (full or short, any spelling), email, status, type and day; one
 * order with its whole history, each event with its time and who did it. The address keeps the
 * open order (`?reference=`) and the search (`?q=`), so either can be shared with a colleague.
 * Before a search it lists the latest orders.
 */
export function Orders() {
  const { t } = useTranslation('ops');
  const { api } = useOps();
  const [filter, setFilter] = React.useState<Filter>(EMPTY);
  const [results, setResults] = React.useState<OpsOrderSummary[] | null>(null);
  const [detail, setDetail] = React.useState<OpsOrderResponse | null>(null);
  const [searched, setSearched] = React.useState(false);
  const search = useAction();
  const open = useAction();

  const find = React.useCallback(
    async (next: Filter) => {
      const found = await search.run(
        () => api.orders(next as Omit<OpsOrdersQuery, 'limit'>),
        () => '',
      );
      if (found) setResults(found.orders);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api],
  );
  const show = React.useCallback(
    async (reference: string) => {
      const found = await open.run(
        () => api.order(reference),
        () => '',
      );
      if (found) {
        setDetail(found);
        window.history.replaceState(null, '', `?reference=${encodeURIComponent(found.order.reference)}`);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [api],
  );

  React.useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const reference = params.get('reference');
    const q = params.get('q');
    if (reference) void show(reference);
    else if (q) {
      const next = { ...EMPTY, q };
      setFilter(next);
      setSearched(true);
      void find(next);
    }
    // Before any search, the latest orders (newest first), so the page is never empty.
    else void find(EMPTY);
  }, [find, show]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setDetail(null);
    setSearched(true);
    window.history.replaceState(null, '', filter.q ? `?q=${encodeURIComponent(filter.q)}` : window.location.pathname);
    void find(filter);
  };
  const set = (name: keyof Filter) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setFilter((f) => ({ ...f, [name]: event.target.value }));

  return (
    <>
      <form className="inline-form ops-search" role="search" onSubmit={submit}>
        <Field
          id="orders-q"
          label={t('orders.q')}
          value={filter.q}
          onChange={set('q')}
          autoComplete="off"
          maxLength={254}
        />
        <SelectField id="orders-status" label={t('orders.status')} value={filter.status} onChange={set('status')}>
          <option value="">{t('common.any')}</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`orderStatus.${s}`)}
            </option>
          ))}
        </SelectField>
        <SelectField id="orders-type" label={t('orders.type')} value={filter.type} onChange={set('type')}>
          <option value="">{t('common.any')}</option>
          {ORDER_TYPES.map((s) => (
            <option key={s} value={s}>
              {t(`orderTypes.${s}`)}
            </option>
          ))}
        </SelectField>
        <Field id="orders-from" type="date" label={t('orders.from')} value={filter.from} onChange={set('from')} />
        <Field id="orders-to" type="date" label={t('orders.to')} value={filter.to} onChange={set('to')} />
        <button type="submit" className="button primary" disabled={search.busy}>
          {t('common.search')}
        </button>
      </form>
      {search.outcome?.kind === 'failed' ? (
        <p role="alert" className="form-error">
          {search.outcome.text}
        </p>
      ) : null}
      {open.outcome?.kind === 'failed' ? (
        <p role="alert" className="form-error">
          {open.outcome.text}
        </p>
      ) : null}
      {detail ? <OrderDetail detail={detail} /> : null}
      {results && !detail ? (
        <section aria-labelledby="ops-orders-list">
          <h2 id="ops-orders-list">{t(searched ? 'orders.found' : 'orders.latest')}</h2>
          <OrderTable orders={results} onOpen={(reference) => void show(reference)} />
        </section>
      ) : null}
    </>
  );
}

/** Orders as a table; on a phone, a card each. */
export function OrderTable({ orders, onOpen }: { orders: OpsOrderSummary[]; onOpen?: (reference: string) => void }) {
  const { t } = useTranslation('ops');
  const { language } = useOps();
  const codeText = useCodeText();
  if (orders.length === 0) return <p>{t('orders.none')}</p>;
  return (
    <table className="data-table stack ops-table">
      <TableHead
        headings={(['placed', 'reference', 'type', 'status', 'amount', 'email'] as const).map((c) =>
          t(`orders.columns.${c}`),
        )}
      />
      <tbody>
        {orders.map((o) => (
          <tr key={o.reference}>
            <td data-label={t('orders.columns.placed')}>
              <When iso={o.createdAt} />
            </td>
            <td data-label={t('orders.columns.reference')}>
              <Link
                to={orderLink(language, o.reference)}
                onClick={(event) => {
                  if (!onOpen) return;
                  event.preventDefault();
                  onOpen(o.reference);
                }}
              >
                <code>{o.reference}</code>
              </Link>
            </td>
            <td data-label={t('orders.columns.type')}>{t(`orderTypes.${o.type}`)}</td>
            <td data-label={t('orders.columns.status')}>
              <span>
                {t(`orderStatus.${o.status}`)}
                {o.failureReason ? <span className="small muted"> · {codeText(o.failureReason)}</span> : null}
              </span>
            </td>
            <td data-label={t('orders.columns.amount')} className="num">
              <span>
                <Money amount={o.amount} currency={o.currencyFrom} /> → {o.currencyTo}
              </span>
            </td>
            <td data-label={t('orders.columns.email')} className="wrap-anywhere">
              {o.email}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function OrderDetail({ detail }: { detail: OpsOrderResponse }) {
  const { t } = useTranslation('ops');
  const codeText = useCodeText();
  const { order, history } = detail;
  return (
    <section aria-labelledby="ops-order" className="ops-detail">
      <h2 id="ops-order">{t('orders.detailTitle', { reference: order.reference })}</h2>
      <Facts
        items={[
          [t('orders.columns.type'), t(`orderTypes.${order.type}`)],
          [
            t('orders.columns.status'),
            `${t(`orderStatus.${order.status}`)}${order.failureReason ? ` · ${codeText(order.failureReason)}` : ''}`,
          ],
          [t('orders.columns.amount'), <Money key="a" amount={order.amount} currency={order.currencyFrom} />],
          [t('orders.amountEur'), <Money key="e" amount={order.amountEur} currency="EUR" />],
          [
            t('orders.received'),
            order.amountReceived ? <Money amount={order.amountReceived} currency={order.currencyFrom} /> : null,
          ],
          [
            t('orders.delivered'),
            order.actualAmountConverted ? (
              <Money amount={order.actualAmountConverted} currency={order.currencyTo} />
            ) : null,
          ],
          [t('orders.columns.email'), order.email],
          [t('orders.account'), order.accountKey ? <code>{order.accountKey}</code> : null],
          [
            t('orders.address'),
            order.address ? <code className="wrap-anywhere">{order.address}</code> : t('orders.intoWallet'),
          ],
          [
            t('orders.receivingAddress'),
            order.receivingAddress ? <code className="wrap-anywhere">{order.receivingAddress}</code> : null,
          ],
          [t('orders.payoutTxid'), order.payoutTxid ? <code className="wrap-anywhere">{order.payoutTxid}</code> : null],
          [t('orders.language'), order.language],
          [t('orders.payerIban'), order.payerIban ? <code className="wrap-anywhere">{order.payerIban}</code> : null],
          // The decision on a held order is a command (each operator action is one, and audited).
          [
            t('orders.review'),
            order.reviewHold ? (
              <code className="wrap-anywhere">{`npm run ops -- order-review ${order.reference} convert|refund`}</code>
            ) : null,
          ],
          [
            t('orders.holds'),
            [
              order.businessHold ? t('orders.businessHold') : '',
              order.reviewHold ? t('orders.reviewHold') : '',
              order.payoutAwaitingApproval ? t('orders.payoutAwaitingApproval') : '',
            ]
              .filter(Boolean)
              .join(' · '),
          ],
        ]}
      />
      <h3>{t('orders.history')}</h3>
      <table className="data-table stack ops-table ops-history">
        <TableHead
          headings={(['at', 'event', 'who', 'status', 'amount', 'detail'] as const).map((c) =>
            t(`orders.historyColumns.${c}`),
          )}
        />
        <tbody>
          {history.map((e, index) => (
            <HistoryRow key={index} event={e} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function HistoryRow({ event }: { event: OrderEvent }) {
  const { t } = useTranslation('ops');
  const codeText = useCodeText();
  const label =
    event.kind === 'audit'
      ? t(`auditActions.${event.action}` as 'auditActions.payout.review', { defaultValue: event.action ?? '' })
      : t(`orders.events.${event.kind}`);
  return (
    <tr>
      <td data-label={t('orders.historyColumns.at')}>
        <When iso={event.at} />
      </td>
      <td data-label={t('orders.historyColumns.event')}>{label}</td>
      <td data-label={t('orders.historyColumns.who')} data-empty={event.actor ? undefined : ''}>
        <Operator id={event.actor} />
      </td>
      <td data-label={t('orders.historyColumns.status')} data-empty={event.status ? undefined : ''}>
        {event.status ? codeText(event.status) : null}
      </td>
      <td data-label={t('orders.historyColumns.amount')} className="num" data-empty={event.amount ? undefined : ''}>
        <Money amount={event.amount} currency={event.currency} />
      </td>
      <td
        data-label={t('orders.historyColumns.detail')}
        data-empty={event.detail ? undefined : ''}
        className="wrap-anywhere"
      >
        {event.detail ? codeText(event.detail) : null}
      </td>
    </tr>
  );
}
