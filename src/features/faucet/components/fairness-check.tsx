import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { ticketOf, verifyRound, type Verification } from '#domain/faucet';
import { formatNumber } from '../../../i18n/format';
import { usePageLanguage } from '../../../ui/localized-link';
import { asTransition } from '../../../ui/transition';
import { getRound, type OwnEntry, type Round } from '../api/faucet';

const hex: React.CSSProperties = { wordBreak: 'break-all' };

/**
 * The seed the round's published hash must equal: the chain's anchor for its first seed, else the
 * seed the round before it in the chain revealed (asked from the API; undefined while it is being
 * asked, null when there is nothing to compare with: a round from before seed chains).
 */
export function usePreviousSeed(round: Pick<Round, 'seedChain'>): string | null | undefined {
  const language = usePageLanguage();
  const [previous, setPrevious] = React.useState<{ id: number; seed: string | null } | null>(null);
  const link = round.seedChain;
  const previousRoundId = link?.previousRoundId ?? null;
  React.useEffect(() => {
    if (previousRoundId === null) return;
    let live = true;
    const show = asTransition(setPrevious);
    getRound(language, previousRoundId)
      .then((r) => live && show({ id: previousRoundId, seed: r.seed }))
      .catch(() => live && setPrevious({ id: previousRoundId, seed: null }));
    return () => {
      live = false;
    };
  }, [previousRoundId, language]);
  if (!link) return null;
  if (link.index === 1) return link.anchor;
  if (previousRoundId === null) return null; // nothing to compare with
  return previous?.id === previousRoundId ? previous.seed : undefined;
}

/**
 * The player's own ticket in this round, recomputed here from their address and their entry's
 * secret salt (shown to them alone; null for an entry from before salts, whose ticket has none):
 * null when they have no entry in the round.
 */
export function useOwnTicket(round: Pick<Round, 'id'>, mine: OwnEntry | null): string | null {
  return React.useMemo(
    () => (mine && mine.roundId === round.id ? ticketOf(mine.roundId, mine.address, mine.salt) : null),
    [mine, round.id],
  );
}

/**
 * The provably fair check, computed here in the browser with the same code the server draws with
 * (domain/faucet.ts): the revealed seed against the hash published at the start, that hash
 * against the seed revealed before it in the chain (or the chain's anchor), the block mixed in,
 * then the draw repeated over the published tickets; and, for a logged-in player, their own ticket
 * recomputed from their address and salt, looked up in the published list.
 */
export function FairnessCheck({ round, mine }: { round: Round; mine: OwnEntry | null }) {
  const { t } = useTranslation('faucet');
  const language = usePageLanguage();
  const [result, setResult] = React.useState<{ roundId: number; check: Verification } | null>(null);
  const revealed = round.state === 'winner_announced' && round.seed && round.seedHash;
  const previousSeed = usePreviousSeed(round);
  const own = useOwnTicket(round, mine);

  React.useEffect(() => {
    if (!revealed || previousSeed === undefined) return;
    // After the paint: hashing thousands of tickets takes a moment on a slow phone.
    const timer = setTimeout(() => {
      const check = verifyRound({
        id: round.id,
        seed: round.seed!,
        seedHash: round.seedHash!,
        previousSeed,
        mix: round.mix?.hash ?? null,
        entriesHash: round.entriesHash,
        tickets: round.players.map((p) => p.ticket),
        winnerTicket: round.winner?.ticket ?? null,
      });
      setResult({ roundId: round.id, check });
    }, 0);
    return () => clearTimeout(timer);
  }, [revealed, round, previousSeed]);

  if (!round.seedHash) return null; // GAME OVER: no round to check
  const check = result?.roundId === round.id ? result.check : null;
  const ownListed = own !== null && round.players.some((p) => p.ticket === own);
  // Once registrations close the list is final: an entry missing from it then is a failed check.
  const listFinal = round.state === 'registrations_closed' || round.state === 'winner_announced';
  const link = round.seedChain;
  const mix = round.mix;
  const source = mix ? t(`fairness.sources.${mix.source}`, { defaultValue: mix.source }) : '';
  const height = mix ? formatNumber(mix.height, language) : '';
  return (
    <section aria-labelledby="faucet-fairness">
      <h2 id="faucet-fairness">{t('fairness.heading')}</h2>
      <p className="small">{t('fairness.how')}</p>
      <dl className="identity-data">
        <dt>{t('fairness.seedHash')}</dt>
        <dd>
          <code style={hex}>{round.seedHash}</code>
        </dd>
        {link ? (
          <>
            <dt>{t('fairness.chainLink')}</dt>
            <dd>
              {link.index === 1
                ? t('fairness.anchorLink', { id: formatNumber(link.id, language) })
                : t('fairness.previousLink', { id: formatNumber(link.previousRoundId ?? 0, language) })}
            </dd>
          </>
        ) : null}
        {mix ? (
          <>
            <dt>{t('fairness.mix')}</dt>
            <dd>
              {mix.hash ? t('fairness.mixValue', { height, source }) : t('fairness.mixPending', { height, source })}
              {mix.hash ? (
                <>
                  <br />
                  <code style={hex}>{mix.hash}</code>
                </>
              ) : null}
            </dd>
          </>
        ) : null}
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
            <li data-testid="fairness-link">
              {check.previousMatches === false
                ? `✗ ${t('fairness.linkBad')}`
                : !check.seedMatches
                  ? `✗ ${t('fairness.seedBad')}`
                  : check.previousMatches && link
                    ? `✓ ${link.index === 1 ? t('fairness.anchorOk', { id: formatNumber(link.id, language) }) : t('fairness.previousOk', { id: formatNumber(link.previousRoundId ?? 0, language) })}`
                    : `✓ ${t('fairness.seedOk')}`}
            </li>
            {check.mixWellFormed ? <li>{`✓ ${t('fairness.mixOk', { height })}`}</li> : null}
            {round.players.length > 0 ? (
              <li>
                {check.entriesHashMatches && check.winnerMatches
                  ? `✓ ${t('fairness.drawOk', { count: round.players.length })}`
                  : `✗ ${t('fairness.drawBad')}`}
              </li>
            ) : null}
          </ul>
        </div>
      )}
      {ownListed ? (
        <p className="small" data-testid="fairness-own">
          {`✓ ${t('fairness.yourTicket')}`} <code style={hex}>{own}</code>
          {mine?.salt ? (
            <>
              <br />
              {t('fairness.yourSalt')} <code style={hex}>{mine.salt}</code>
            </>
          ) : null}
        </p>
      ) : own !== null && listFinal ? (
        <p className="small" data-testid="fairness-own">{`✗ ${t('fairness.yourTicketBad')}`}</p>
      ) : null}
    </section>
  );
}
