import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { useOwnTicket } from './fairness-check';
import type { OwnEntry, Round } from '../api/faucet';

/** At most this many rows: a round can have thousands of players; the count says how many. */
const SHOWN = 100;

export function PlayerList({ round, mine }: { round: Round; mine: OwnEntry | null }) {
  const { t } = useTranslation('faucet');
  // "You" marks the ticket the browser recomputes from the player's address and salt.
  const own = useOwnTicket(round, mine);
  const shown = round.players.slice(0, SHOWN);
  const more = round.playerCount - shown.length;
  return (
    <section aria-labelledby="faucet-players">
      <h2 id="faucet-players">{t('players.heading')}</h2>
      <p>{t('players.count', { count: round.playerCount })}</p>
      {round.players.length === 0 ? (
        <p className="muted">{t('players.none')}</p>
      ) : (
        <ol className="faucet-players">
          {shown.map((player) => (
            <li key={player.ticket}>
              <code>{player.address}</code>{' '}
              <WithCurrencyIcon code={player.currency}>{player.currency}</WithCurrencyIcon>
              {own === player.ticket ? <strong> ({t('players.you')})</strong> : null}
              {round.winner?.ticket === player.ticket ? <strong> ★ {t('players.winner')}</strong> : null}
            </li>
          ))}
        </ol>
      )}
      {more > 0 ? <p className="muted">{t('players.more', { count: more })}</p> : null}
    </section>
  );
}
