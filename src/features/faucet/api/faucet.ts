import * as React from 'react';
import { apiOrigin } from '../../../config';
import { apiRequest } from '../../../components/api';
import type { Language } from '../../../i18n/languages';
import type { EntryView, RoundView } from '../../../../domain/faucet';

/** The faucet API: the public round (and its live stream), entering, and the player's own results. */
export type Round = RoundView;
export type Entry = EntryView;
export type MyEntry = Entry & { result: 'pending' | 'won' | 'lost'; amount: string | null };
export type Address = { id: string; currency: string; address: string; label: string | null };

export const enterRound = (token: string, language: Language, address: string) => apiRequest<Entry>(token, language, '/api/faucet/entries', { body: { address } });
export const getMyEntries = async (token: string, language: Language) => (await apiRequest<{ entries: MyEntry[] }>(token, language, '/api/faucet/me')).entries;
export const getAddresses = async (token: string, language: Language) => (await apiRequest<{ addresses: Address[] }>(token, language, '/api/wallet/addresses')).addresses;

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
        const { round } = JSON.parse((event as MessageEvent<string>).data) as { round: Round | null };
        setState({ round, skewMs: round ? Date.parse(round.serverTime) - Date.now() : 0 });
        setConnection('live');
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
