import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney, formatNumber, listFormat } from '../../../i18n/format';
import { WithCurrencyIcon } from '../../../ui/currency-icon';
import { usePageLanguage } from '../../../ui/localized-link';
import { useLiveRound, useNow, type OwnEntry, type Round } from '../api/faucet';
import { FairnessCheck } from './fairness-check';
import { PlayerList } from './player-list';
import { RoundContext } from './round-context';

/**
 * The faucet game for everyone: the live round (state, countdown, reward, winner), the players
 * and the in-browser check of the draw. `children` is the player's panel (entering needs a login).
 */
export function FaucetGame({ children }: { children?: React.ReactNode }) {
  const { t } = useTranslation('faucet');
  const { round, skewMs, connection } = useLiveRound();
  const [mine, setMine] = React.useState<OwnEntry | null>(null);
  const value = React.useMemo(() => ({ round, skewMs, mine, setMine }), [round, skewMs, mine]);
  return (
    <RoundContext.Provider value={value}>
      {round ? (
        <>
          <RoundStatus round={round} skewMs={skewMs} connection={connection} />
          {children}
          <PlayerList round={round} mine={mine} />
          <FairnessCheck round={round} mine={mine} />
        </>
      ) : (
        <p className="muted" role="status">
          {connection === 'reconnecting' ? t('connection.reconnecting') : t('loading')}
        </p>
      )}
    </RoundContext.Provider>
  );
}

const AMOUNTS_MARK = '\u0000';

/**
 * The reward in each currency, "or" between them: it is paid in one of these, the currency of
 * the winning address; each with its logo. A component of its own because creating the page's
 * first Intl.ListFormat loads the language's list patterns (tens of milliseconds on a slow
 * phone): React renders the round as a transition and can yield before and after this part.
 */
function RewardAmounts({ amounts }: { amounts: Round['reward']['amounts'] }) {
  const { t } = useTranslation('faucet');
  const language = usePageLanguage();
  const rewards = Object.entries(amounts);
  let next = 0;
  const list = listFormat(language, { type: 'disjunction' })
    .formatToParts(rewards.map(([currency, amount]) => formatMoney(amount, currency, language)))
    .map((part, i) => {
      if (part.type === 'literal') return part.value;
      const [currency] = rewards[next++]!;
      return (
        <WithCurrencyIcon key={i} code={currency}>
          {part.value}
        </WithCurrencyIcon>
      );
    });
  // The sentence around the amounts, which are elements (a marker stands for them in the text).
  const [before, after] = t('round.rewardRates', { amounts: AMOUNTS_MARK }).split(AMOUNTS_MARK);
  return (
    <span className="small muted reward-rates">
      {before}
      {list}
      {after}
    </span>
  );
}

function RoundStatus({ round, skewMs, connection }: { round: Round; skewMs: number; connection: string }) {
  const { t } = useTranslation('faucet');
  const language = usePageLanguage();
  return (
    <section aria-labelledby="faucet-round" className="faucet-round">
      <h2 id="faucet-round">
        {t('round.heading', { id: formatNumber(round.id, language) })}{' '}
        <span className="small muted">
          ({connection === 'live' ? t('connection.live') : t('connection.reconnecting')})
        </span>
      </h2>
      <dl className="identity-data">
        <dt>{t('round.state')}</dt>
        <dd className="phase" data-state={round.state}>
          {/* A round nobody played is drawn without a winner: its state does not announce one. */}
          {round.state === 'winner_announced' && !round.winner ? t('states.nobody_played') : t(`states.${round.state}`)}
        </dd>
        {round.endsAt && round.state !== 'game_over' ? (
          <>
            <dt>{t(`countdown.${round.state}`)}</dt>
            <dd>
              <Countdown endsAt={round.endsAt} skewMs={skewMs} />
            </dd>
          </>
        ) : null}
        <dt>{t('round.reward')}</dt>
        <dd>
          {t('round.rewardValue', { eur: formatMoney(round.reward.eur, 'EUR', language) })}
          <br />
          <RewardAmounts amounts={round.reward.amounts} />
        </dd>
      </dl>
      {round.state === 'game_over' ? (
        <p className="phase">{t(`gameOver.${round.gameOverReason ?? 'paused'}`)}</p>
      ) : null}
      {round.paused && round.state !== 'game_over' ? <p>{t('pausing')}</p> : null}
      {round.state === 'winner_announced' ? (
        <>
          <h3>{t('winner.heading')}</h3>
          <p>
            {round.winner
              ? t('winner.text', {
                  address: round.winner.address,
                  amount: formatMoney(round.winner.amount, round.winner.currency, language),
                })
              : t('winner.nobody')}
          </p>
        </>
      ) : null}
    </section>
  );
}

/** Minutes and seconds to the end of the phase, by the server's clock. */
function Countdown({ endsAt, skewMs }: { endsAt: string; skewMs: number }) {
  const now = useNow();
  const left = Math.max(0, Math.ceil((Date.parse(endsAt) - (now + skewMs)) / 1000));
  const minutes = Math.floor(left / 60);
  const seconds = left % 60;
  // A timer is not announced every second (role="timer" is polite-off by default).
  return (
    <time role="timer" dateTime={`PT${minutes}M${seconds}S`} className="phase">
      {minutes}:{String(seconds).padStart(2, '0')}
    </time>
  );
}
