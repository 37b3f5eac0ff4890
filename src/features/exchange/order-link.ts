import * as React from 'react';
import { errorKeyOf, type ErrorTextKey } from '../../app/error-text';
import { usePageLanguage } from '../../ui/localized-link';
import { openOrderLink } from './api/orders';
import type { Order } from './api/types';

/**
 * An order's signed link in the page's address (`?order=<token>`): the order history page's from
 * the confirmation email, and the buy, sell and swap pages' once an order is placed there, so a
 * reload, a bookmark or the back button finds the order again without the email and reference
 * being typed. The token stays in the address (it is what keeps the order); it opens one order,
 * and only as its email and reference would.
 */
export const ORDER_LINK_PARAM = 'order';

export function orderLinkOf(search: string): string | null {
  return new URLSearchParams(search).get(ORDER_LINK_PARAM);
}

/** Puts the order's link into the address without a navigation (null takes it out). */
export function keepOrderLink(token: string | null): void {
  const url = new URL(window.location.href);
  if (token) url.searchParams.set(ORDER_LINK_PARAM, token);
  else url.searchParams.delete(ORDER_LINK_PARAM);
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

export type OpenedLink =
  | { state: 'none' }
  | { state: 'opening' }
  | { state: 'open'; order: Order; email: string; link: string }
  | { state: 'failed'; error: ErrorTextKey };

/** Opens the order of the link in the address once, when there is one. */
export function useOrderLink(): OpenedLink {
  const language = usePageLanguage();
  const [opened, setOpened] = React.useState<OpenedLink>({ state: 'none' });
  const started = React.useRef(false);
  React.useEffect(() => {
    if (started.current) return;
    const token = orderLinkOf(window.location.search);
    if (!token) return;
    started.current = true;
    setOpened({ state: 'opening' });
    openOrderLink(language, token).then(
      ({ email, ...order }) => setOpened({ state: 'open', order, email, link: token }),
      (error: unknown) => setOpened({ state: 'failed', error: errorKeyOf(error) }),
    );
  }, [language]);
  return opened;
}
