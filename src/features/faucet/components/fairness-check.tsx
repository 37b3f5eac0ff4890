import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { verifyRound, type Verification } from '../../../../domain/faucet';
import type { Entry, Round } from '../api/faucet';

const hex: React.CSSProperties = { wordBreak: 'break-all' };

/**
 * The provably fair check, computed here in the browser with the same code the server draws with
 * (domain/faucet.ts): the revealed seed against the hash published at the start, then the draw
 * repeated over the published tickets.
 */
export function FairnessCheck({ round, mine }: { round: Round; mine: Entry | null }) {
  const { t } = useTranslation('faucet');
  const [result, setResult] = React.useState<{ roundId: number; check: Verification } | null>(null);
  const revealed = round.state === 'winner_announced' && round.seed && round.seedHash;

  React.useEffect(() => {
    if (!revealed) return;
    // After the paint: hashing thousands of tickets takes a moment on a slow phone.
    const timer = setTimeout(() => {
      const check = verifyRound({
        id: round.id,
        seed: round.seed!,
        seedHash: round.seedHash!,
        mix: round.mix?.hash ?? null,
        entriesHash: round.entriesHash,
        tickets: round.players.map((p) => p.ticket),
        winnerTicket: round.winner?.ticket ?? null,
      });
      setResult({ roundId: round.id, check });
    }, 0);
    return () => clearTimeout(timer);
  }, [revealed, round]);

  if (!round.seedHash) return null; // GAME OVER: no round to check
  const check = result?.roundId === round.id ? result.check : null;
  const myTicket = mine?.roundId === round.id ? mine.ticket : null;
  return (
    <section aria-labelledby="faucet-fairness">
      <h2 id="faucet-fairness">{t('fairness.heading')}</h2>
      <p className="small">{t('fairness.how')}</p>
      <dl className="identity-data">
        <dt>{t('fairness.seedHash')}</dt>
        <dd>
          <code style={hex}>{round.seedHash}</code>
        </dd>
        {revealed ? (
          <>
            <dt>{t('fairness.seed')}</dt>
            <dd>
              <code style={hex}>{round.seed}</code>
            </dd>
            {round.entriesHash ? (
              <>
                <dt>{t('fairness.entriesHash')}</dt>
                <dd>
                  <code style={hex}>{round.entriesHash}</code>
                </dd>
              </>
            ) : null}
            {check?.index !== null && check?.index !== undefined ? (
              <>
                <dt>{t('fairness.position')}</dt>
                <dd>{check.index + 1}</dd>
              </>
            ) : null}
          </>
        ) : null}
      </dl>
      {!revealed ? (
        <p className="muted">{t('fairness.waiting')}</p>
      ) : !check ? (
        <p className="muted">{t('fairness.checking')}</p>
      ) : (
        // The live region wraps the list: a role on the <ul> itself would take away its list semantics.
        <div role="status" data-testid="fairness-result">
          <ul>
            <li>{check.seedMatches ? `✓ ${t('fairness.seedOk')}` : `✗ ${t('fairness.seedBad')}`}</li>
            {round.players.length > 0 ? <li>{check.entriesHashMatches && check.winnerMatches ? `✓ ${t('fairness.drawOk', { count: round.players.length })}` : `✗ ${t('fairness.drawBad')}`}</li> : null}
          </ul>
        </div>
      )}
      {myTicket && round.players.some((p) => p.ticket === myTicket) ? (
        <p className="small">
          {t('fairness.yourTicket')} <code style={hex}>{myTicket}</code>
        </p>
      ) : null}
    </section>
  );
}
