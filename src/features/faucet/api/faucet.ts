import * as React from 'react';
import { apiRequest } from '../../../app/api';
import { apiOrigin } from '../../../config';
import type {
  CurrentRoundResponse,
  EnterBody,
  Entry,
  MyEntriesResponse,
  MyEntry,
  Round,
  RoundResponse,
  RoundsResponse,
} from '#domain/contracts/faucet';
import type { AddressesResponse, WalletAddress } from '#domain/contracts/wallet';
import type { Language } from '#domain/languages';

/** The faucet API: the public round (and its live stream), entering, and the player's own results. */
export type { Round, Entry, MyEntry };
/**
 * The player's own entry in a round, as the page keeps it: from GET /api/faucet/me or the answer to
 * entering, with its secret salt (null for an entry from before salts) to recompute the ticket.
 */
export type OwnEntry = Pick<MyEntry, 'roundId' | 'ticket' | 'address' | 'currency' | 'salt'>;
export type Address = WalletAddress;

export const enterRound = (token: string, language: Language, address: string) =>
  apiRequest<Entry>(token, language, '/api/faucet/entries', { body: { address } satisfies EnterBody });
export const getMyEntries = async (token: string, language: Language) =>
  (await apiRequest<MyEntriesResponse>(token, language, '/api/faucet/me')).entries;
/** Any round (public), and a page of announced rounds, newest first. */
export const getRound = async (language: Language, id: number) =>
  (await apiRequest<RoundResponse>(null, language, `/api/faucet/rounds/${id}`)).round;
export const getRounds = (language: Language, before: number | null, limit: number) =>
  apiRequest<RoundsResponse>(null, language, `/api/faucet/rounds?limit=${limit}${before ? `&before=${before}` : ''}`);
/** Where a range of rounds is downloaded as one file (for `npm run verify:faucet`). */
export const exportUrl = (from: number, to: number) => `${apiOrigin}/api/faucet/rounds/export?from=${from}&to=${to}`;
export const getAddresses = async (token: string, language: Language) =>
  (await apiRequest<AddressesResponse>(token, language, '/api/wallet/addresses')).addresses;

export type Connection = 'connecting' | 'live' | 'reconnecting';

/** How long to wait before opening a new stream when the server refused one. */
export const RECONNECT_AFTER_MS = 5000;

/**
 * The current round, live: the server pushes it on connect and on every change (SSE); the
 * browser reconnects by itself after a drop. `skewMs` is how far the server clock is ahead of
 * this one, so that the countdown agrees with the server's schedule.
 */
export function useLiveRound(): { round: Round | null; skewMs: number; connection: Connection } {
  const [state, setState] = React.useState<{ round: Round | null; skewMs: number }>({ round: null, skewMs: 0 });
  const [connection, setConnection] = React.useState<Connection>('connecting');
  React.useEffect(() => {
    let source: EventSource;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const connect = () => {
      source = new EventSource(`${apiOrigin}/api/faucet/events`);
      source.addEventListener('round', (event) => {
        const { round } = JSON.parse((event as MessageEvent<string>).data) as CurrentRoundResponse;
        const skewMs = round ? Date.parse(round.serverTime) - Date.now() : 0;
        // A transition: React renders the round (players, hashes, fairness check) in short
        // slices, so a tap while a round arrives is answered at once.
        React.startTransition(() => {
          setState({ round, skewMs });
          setConnection('live');
        });
      });
      source.onerror = () => {
        setConnection('reconnecting');
        // After a dropped stream the browser reconnects by itself; after an error answer (a 502
        // during a deploy, a 429) it gives up for good, so try again a little later.
        if (source.readyState === EventSource.CLOSED) retry = setTimeout(connect, RECONNECT_AFTER_MS);
      };
    };
    connect();
    return () => {
      clearTimeout(retry);
      source.close();
    };
  }, []);
  return { ...state, connection };
}

/** The current time, re-rendered every second (for countdowns). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = React.useState(() => Date.now());
  React.useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}
