import { apiRequest } from '../../../app/api';
import { apiOrigin } from '../../../config';
import type {
  ConfirmOrderBody,
  LookupOrderBody,
  MyOrdersResponse,
  NewIbanBody,
  OpenOrderBody,
  PlaceOrderBody,
} from '#domain/contracts/orders';
import type { Language } from '#domain/languages';
import type { Order } from './types';

/** Placing, finding and following orders. */
export type PlaceOrder = PlaceOrderBody;

/** POST /api/orders. The same key for a retry of the same attempt places one order. */
export const placeOrder = (token: string | null, language: Language, body: PlaceOrder, idempotencyKey: string) =>
  apiRequest<Order>(token, language, '/api/orders', { body, headers: { 'idempotency-key': idempotencyKey } });

/** POST /api/orders/lookup: email + full reference; anything wrong is one 404 not_found. */
export const lookupOrder = (language: Language, email: string, reference: string) =>
  apiRequest<Order>(null, language, '/api/orders/lookup', { body: { email, reference } satisfies LookupOrderBody });

/** POST /api/orders/open: the order a signed link opens (its email, the page's address after placing it), with its email to follow it live. */
export const openOrderLink = (language: Language, token: string) =>
  apiRequest<Order & { email: string }>(null, language, '/api/orders/open', {
    body: { token } satisfies OpenOrderBody,
  });

/** GET /api/me/orders: the logged-in user's own orders, newest first. */
export const getMyOrders = async (token: string, language: Language) =>
  (await apiRequest<MyOrdersResponse>(token, language, '/api/me/orders')).orders;

/** Who follows an order live: the holder of its email (with the reference), or of its signed link. */
export type OrderFollower = { email: string } | { link: string };

/** GET /api/orders/:reference/events?email= (or ?link=): the order as server-sent events while it is open. */
export const orderEventsUrl = (reference: string, follower: OrderFollower) =>
  `${apiOrigin}/api/orders/${encodeURIComponent(reference)}/events?${new URLSearchParams(follower).toString()}`;

/** POST /api/orders/:reference/confirm: the code emailed for an order paid from the wallet to a destination outside it. */
export const confirmOrder = (token: string, language: Language, reference: string, code: string) =>
  apiRequest<Order>(token, language, `/api/orders/${encodeURIComponent(reference)}/confirm`, {
    body: { code } satisfies ConfirmOrderBody,
  });

/** POST /api/orders/return-link: the order a returned payout's emailed link opens. */
export const openReturnLink = (language: Language, token: string) =>
  apiRequest<Order>(null, language, '/api/orders/return-link', { body: { token } });

/** POST /api/orders/:reference/new-iban: another IBAN for a returned payout, logged in (token) or with the link's token. */
export const giveNewIban = (authToken: string | null, language: Language, reference: string, body: NewIbanBody) =>
  apiRequest<Order>(authToken, language, `/api/orders/${encodeURIComponent(reference)}/new-iban`, { body });
