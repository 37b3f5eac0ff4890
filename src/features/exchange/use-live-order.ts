import * as React from 'react';
import { orderEventsUrl, type OrderFollower } from './api/orders';
import { isOpen, type Order } from './api/types';

/**
 * An open order, kept current without a reload: server-sent events from
 * GET /api/orders/:reference/events?email= or ?link= (each `order` event carries the whole order;
 * the stream ends when the order is completed). EventSource reconnects by itself after a dropped
 * connection; when the stream cannot be opened at all (or there is neither an email nor the
 * order's signed link to prove the order is ours), `refresh` is polled instead. A link is
 * preferred: following it is not counted against the limit on lookups by email.
 */
export type Connection = 'connecting' | 'live' | 'polling' | 'done';
export const POLL_MS = 15_000;

export function useLiveOrder(
  initial: Order,
  follower: OrderFollower | null,
  refresh?: () => Promise<Order>,
): { order: Order; connection: Connection } {
  const [order, setOrder] = React.useState(initial);
  const [connection, setConnection] = React.useState<Connection>(isOpen(initial.status) ? 'connecting' : 'done');
  const open = isOpen(order.status);
  const refreshRef = React.useRef(refresh);
  refreshRef.current = refresh;
  // A string, so that the effect follows the follower's value, not a new object of each render.
  const eventsUrl = follower ? orderEventsUrl(initial.reference, follower) : null;

  React.useEffect(() => setOrder(initial), [initial]);

  React.useEffect(() => {
    if (!open) {
      setConnection('done');
      return;
    }
    let timer: ReturnType<typeof setInterval> | undefined;
    let source: EventSource | undefined;
    const poll = () => {
      if (!refreshRef.current || timer) return;
      setConnection('polling');
      timer = setInterval(() => {
        void refreshRef.current?.().then(setOrder, () => undefined);
      }, POLL_MS);
    };
    if (eventsUrl && typeof EventSource !== 'undefined') {
      source = new EventSource(eventsUrl);
      source.addEventListener('open', () => setConnection('live'));
      source.addEventListener('order', (event) => {
        const next = JSON.parse((event as MessageEvent<string>).data) as Order;
        setOrder(next);
        if (!isOpen(next.status)) source?.close();
      });
      source.addEventListener('error', () => {
        // CLOSED: the server refused the stream (it will not retry); otherwise it reconnects.
        if (source?.readyState === EventSource.CLOSED) poll();
        else setConnection('connecting');
      });
    } else {
      poll();
    }
    return () => {
      source?.close();
      if (timer) clearInterval(timer);
    };
  }, [open, eventsUrl]);

  return { order, connection };
}
