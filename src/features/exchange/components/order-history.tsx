import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { normalizeCode } from '#domain/codes';
import { EMAIL_PATTERN } from '#domain/email';
import { localizePath } from '#domain/languages';
import { ApiFailure } from '../../../app/api';
import { errorKeyOf, formErrorKey, useErrorText, type ErrorTextKey } from '../../../app/error-text';
import { rulesResolver, type Rules } from '../../../app/form-rules';
import { routes } from '../../../i18n/routes';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { Field } from '../../../ui/field';
import { usePageLanguage } from '../../../ui/localized-link';
import { asTransition } from '../../../ui/transition';
import { useHydrated } from '../../../ui/use-hydrated';
import { getMyOrders, lookupOrder, openOrderLink, openReturnLink } from '../api/orders';
import { formatDateTime, formatMoney } from '../format';
import { useOrderLink } from '../order-link';
import { useExchangeSession } from '../session';
import type { Order } from '../api/types';

/**
 * An opened order's details (status, payment instructions with the GiroCode QR, IBAN formatting,
 * returns: ~17 KB gzipped) are needed only once an order is opened: their own chunk, fetched in
 * the browser's idle time (webpack's prefetch link) and run when the first order opens.
 */
const loadOrderDetails = () => import(/* webpackPrefetch: true */ './order-details');
type OrderDetailsModule = Awaited<ReturnType<typeof loadOrderDetails>>;

/**
 * Order history: find an order by email and full reference (any case, with or without dashes),
 * then follow it live. Logged-in users also see their own orders, each openable.
 */
type LookupValues = { email: string; reference: string };
export type Opened = { order: Order; email: string | null; own: boolean; returnToken?: string; link?: string };

export const lookupRules: Rules<LookupValues> = (values, fail) => {
  const email = values.email.trim();
  if (!email) fail('email', 'required');
  else if (!EMAIL_PATTERN.test(email)) fail('email', 'invalid_email');
  if (!values.reference.trim()) fail('reference', 'required');
  else if (!normalizeCode(values.reference)) fail('reference', 'invalid_reference');
};

export function OrderHistory({ initialLookup }: { initialLookup?: LookupValues }) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const session = useExchangeSession();
  const [opened, setOpened] = React.useState<Opened | null>(null);
  const [details, setDetails] = React.useState<OrderDetailsModule | null>(null);
  const orderHeading = React.useRef<HTMLDivElement>(null);
  const errorText = useErrorText();

  const open = React.useCallback((next: Opened) => {
    // The details' code first (usually there already), so the order and its heading show together.
    const show = (loaded: OrderDetailsModule | null) => {
      if (loaded) setDetails(loaded);
      setOpened(next);
      window.requestAnimationFrame(() => orderHeading.current?.querySelector('h2')?.focus());
    };
    loadOrderDetails().then(show, () => show(null));
  }, []);
  const LiveOrder = details?.LiveOrder;
  const linkError = useReturnLink(open);
  // The confirmation email's link (`?order=`): the order opens at once, and again on a reload.
  const linked = useOrderLink();
  const fromLink = linked.state === 'opening' || (linked.state === 'open' && opened?.link === linked.link);
  const lookupForm = (
    <LookupForm initial={initialLookup} onFound={(order, email) => open({ order, email, own: false })} />
  );
  React.useEffect(() => {
    if (linked.state === 'open') open({ order: linked.order, email: linked.email, own: false, link: linked.link });
  }, [linked, open]);

  return (
    <>
      {linkError}
      {linked.state === 'opening' ? <p role="status">{t('confirm.opening')}</p> : null}
      {linked.state === 'failed' ? (
        <p role="alert" className="form-error">
          {errorText(linked.error)}
        </p>
      ) : null}
      {fromLink ? null : lookupForm}
      <div ref={orderHeading} className="opened-order">
        {opened && !LiveOrder ? (
          // The details' code could not be fetched (offline): the reference, and that it failed.
          <>
            <h2 tabIndex={-1} className="wrap-anywhere">
              {t('order.heading', { reference: opened.order.reference })}
            </h2>
            <p role="alert" className="form-error">
              {errorText('generic')}
            </p>
          </>
        ) : opened && LiveOrder ? (
          <LiveOrder
            key={opened.order.reference}
            order={opened.order}
            follower={opened.link ? { link: opened.link } : opened.email ? { email: opened.email } : null}
            returnAccess={opened.returnToken ? { token: opened.returnToken } : opened.own ? { own: true } : undefined}
            refresh={
              opened.link
                ? async () => {
                    const { email: _email, ...order } = await openOrderLink(language, opened.link!);
                    return order;
                  }
                : opened.email
                  ? () => lookupOrder(language, opened.email!, opened.order.reference)
                  : async () => {
                      const mine = await getMyOrders((await session.getToken())!, language);
                      return mine.find((o) => o.reference === opened.order.reference) ?? opened.order;
                    }
            }
          />
        ) : null}
      </div>
      {fromLink ? (
        // The order is what the email's link was for; finding another one comes after it.
        <details className="lookup-another">
          <summary>{t('history.findAnother')}</summary>
          {lookupForm}
        </details>
      ) : null}
      {session.status === 'authenticated' ? (
        <MyOrders onOpen={(order) => open({ order, email: order.email ?? null, own: true })} />
      ) : null}
      {session.status === 'anonymous' ? (
        <p className="small muted">
          <a
            href={`${localizePath(routes.login, language)}?returnTo=${encodeURIComponent(localizePath(routes.exchange_order_history, language))}`}
          >
            {t('history.loginForOwn')}
          </a>
        </p>
      ) : null}
    </>
  );
}

/**
 * A returned payout's emailed link (`?newIban=<token>`): opens its order, with the form for another
 * IBAN; a link that is not genuine, has expired or was used says so. The token leaves the address
 * bar once read, so it is not kept in the history or passed on by a copied address.
 */
function useReturnLink(open: (next: Opened) => void): React.ReactNode {
  const language = usePageLanguage();
  const errorText = useErrorText();
  const { t } = useTranslation('exchange');
  const [state, setState] = React.useState<'idle' | 'opening' | ErrorTextKey>('idle');
  const started = React.useRef(false);
  React.useEffect(() => {
    if (started.current) return;
    const token = new URLSearchParams(window.location.search).get('newIban');
    if (!token) return;
    started.current = true;
    window.history.replaceState(window.history.state, '', window.location.pathname);
    setState('opening');
    openReturnLink(language, token).then(
      (order) => {
        setState('idle');
        open({ order, email: null, own: false, returnToken: token });
      },
      (error: unknown) => setState(errorKeyOf(error)),
    );
  }, [language, open]);
  if (state === 'idle') return null;
  if (state === 'opening') return <p role="status">{t('order.payoutReturn.linkOpening')}</p>;
  return (
    <p role="alert" className="form-error">
      {errorText(state)}
    </p>
  );
}

function LookupForm({ initial, onFound }: { initial?: LookupValues; onFound: (order: Order, email: string) => void }) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const hydrated = useHydrated();
  const errorText = useErrorText();
  const [formError, setFormError] = React.useState<ErrorTextKey | null>(null);
  const resolver = rulesResolver(lookupRules);
  const { register, handleSubmit, setError, formState } = useForm<LookupValues>({
    resolver,
    defaultValues: initial ?? { email: '', reference: '' },
  });

  const find = React.useCallback(
    async ({ email, reference }: LookupValues) => {
      setFormError(null);
      try {
        const order = await lookupOrder(language, email.trim(), normalizeCode(reference)!);
        onFound(order, email.trim());
      } catch (error) {
        if (error instanceof ApiFailure && (error.field === 'email' || error.field === 'reference'))
          return setError(error.field, { message: error.code });
        setFormError(error instanceof ApiFailure ? errorKeyOf(error) : 'try_again_soon');
      }
    },
    [language, onFound, setError],
  );

  // Arriving from a confirmation: look the order up at once.
  const started = React.useRef(false);
  React.useEffect(() => {
    if (initial && !started.current && normalizeCode(initial.reference)) {
      started.current = true;
      void find(initial);
    }
  }, [initial, find]);

  const error = (name: keyof LookupValues) => errorText(formErrorKey(formState.errors[name]?.message));
  return (
    <form onSubmit={handleSubmit(find)} noValidate className="lookup-form">
      <Field
        id="lookup-email"
        label={t('history.email')}
        type="email"
        autoComplete="email"
        error={error('email')}
        {...register('email')}
      />
      <Field
        id="lookup-reference"
        label={t('history.reference')}
        autoComplete="off"
        spellCheck={false}
        autoCapitalize="characters"
        error={error('reference')}
        aria-describedby={
          formState.errors.reference ? 'lookup-reference-error lookup-reference-hint' : 'lookup-reference-hint'
        }
        {...register('reference')}
      />
      <p className="field-hint small muted" id="lookup-reference-hint">
        {t('history.referenceHint')}
      </p>
      {formError ? (
        <p role="alert" className="form-error">
          {formError === 'not_found' ? t('history.notFound') : errorText(formError)}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={!hydrated || formState.isSubmitting}>
        {formState.isSubmitting ? t('history.searching') : t('history.submit')}
      </button>
    </form>
  );
}

function MyOrders({ onOpen }: { onOpen: (order: Order) => void }) {
  const { t } = useTranslation('exchange');
  const language = usePageLanguage();
  const session = useExchangeSession();
  const [orders, setOrders] = React.useState<Order[] | null>(null);
  const [failed, setFailed] = React.useState(false);
  React.useEffect(() => {
    session
      .getToken()
      .then((token) => getMyOrders(token!, language))
      .then(asTransition(setOrders), () => setFailed(true));
  }, [session, language]);

  return (
    <section aria-labelledby="my-orders-heading" className="my-orders">
      <h2 id="my-orders-heading">{t('history.mine')}</h2>
      {failed ? <p role="alert">{t('history.mineError')}</p> : null}
      {!orders && !failed ? <p className="muted">{t('history.mineLoading')}</p> : null}
      {orders && orders.length === 0 ? <p className="muted">{t('history.mineNone')}</p> : null}
      {orders && orders.length > 0 ? (
        <table className="data-table stack">
          <thead>
            <tr>
              <th scope="col">{t('order.fields.date')}</th>
              <th scope="col">{t('order.fields.reference')}</th>
              <th scope="col">{t('order.fields.type')}</th>
              <th scope="col">{t('order.fields.amount')}</th>
              <th scope="col">{t('order.fields.status')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('history.open')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {orders.map((order) => (
              <tr key={order.reference}>
                <td data-label={t('order.fields.date')}>{formatDateTime(order.date, language)}</td>
                <td data-label={t('order.fields.reference')}>
                  <code className="wrap-anywhere">{order.reference}</code>
                </td>
                <td data-label={t('order.fields.type')}>{t(`order.types.${order.type}`)}</td>
                <td data-label={t('order.fields.amount')} className="num">
                  <WithCurrencyIcon code={order.currencyFrom}>
                    {formatMoney(order.amount, order.currencyFrom, language)}
                  </WithCurrencyIcon>
                </td>
                <td data-label={t('order.fields.status')}>
                  {t(`order.status.${order.status}`)}
                  {order.payoutReturn?.state === 'awaiting_iban' ? (
                    <>
                      <br />
                      <strong className="small">{t('order.payoutReturn.heading')}</strong>
                    </>
                  ) : null}
                </td>
                <td data-label="">
                  <button
                    type="button"
                    className="button small"
                    onClick={() => onOpen(order)}
                    aria-label={t('history.openOrder', { reference: order.reference })}
                  >
                    {t('history.open')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
