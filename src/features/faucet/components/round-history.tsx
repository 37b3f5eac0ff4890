import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { roundHolds, verifyRound, verifyRounds, type RoundsFile } from '#domain/faucet';
import { errorKeyOf, useErrorText } from '../../../app/error-text';
import { formatDateTime, formatMoney, formatNumber, listFormat } from '../../../i18n/format';
import { usePageLanguage } from '../../../ui/localized-link';
import { asTransition } from '../../../ui/transition';
import { exportUrl, getRound, getRounds, type Round } from '../api/faucet';
import '../faucet.css';

/** Rounds per page. */
export const HISTORY_PAGE = 10;

const short = (hash: string) => `${hash.slice(0, 10)}…`;

type Checked = Map<number, boolean>;

/**
 * Each round of the page checked in the browser (domain/faucet.ts): its chain link against the
 * seed revealed before it — found on the page, or asked from the API for the oldest round of the
 * page — or the chain's anchor, the block mixed in, and the draw.
 */
function useChecks(rounds: Round[] | null): Checked {
  const language = usePageLanguage();
  const [checked, setChecked] = React.useState<Checked>(new Map());
  React.useEffect(() => {
    if (!rounds) return;
    let live = true;
    (async () => {
      const seeds = new Map(rounds.map((r) => [r.id, r.seed]));
      const missing = rounds
        .map((r) => r.seedChain?.previousRoundId)
        .filter((id): id is number => id !== null && id !== undefined && !seeds.has(id));
      for (const id of missing) seeds.set(id, (await getRound(language, id).catch(() => null))?.seed ?? null);
      // After the paint: a page of large rounds takes a moment to hash on a slow phone.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const results: Checked = new Map();
      for (const r of rounds) {
        const link = r.seedChain;
        const previousSeed = !link
          ? undefined
          : link.index === 1
            ? link.anchor
            : link.previousRoundId !== null
              ? (seeds.get(link.previousRoundId) ?? null)
              : undefined;
        const check = verifyRound({
          id: r.id,
          seed: r.seed ?? '',
          seedHash: r.seedHash ?? '',
          previousSeed,
          mix: r.mix?.hash ?? null,
          entriesHash: r.entriesHash,
          tickets: r.players.map((p) => p.ticket),
          winnerTicket: r.winner?.ticket ?? null,
        });
        results.set(r.id, roundHolds(check) && (!r.mix || r.mix.hash !== null));
      }
      if (live) setChecked(results);
    })();
    return () => {
      live = false;
    };
  }, [rounds, language]);
  return checked;
}

/** The faucet's past rounds, newest first, a page at a time, each checked in the browser; the page's rounds as one file to download. */
export function RoundHistory() {
  const { t } = useTranslation('faucet');
  const language = usePageLanguage();
  const errorText = useErrorText();
  // The `before` of each page shown so far: going back to newer rounds pops one.
  const [cursors, setCursors] = React.useState<(number | null)[]>([null]);
  const [page, setPage] = React.useState<{ rounds: Round[]; next: number | null } | null>(null);
  const [error, setError] = React.useState<unknown>(null);
  const before = cursors[cursors.length - 1]!;

  React.useEffect(() => {
    let live = true;
    const showPage = asTransition(setPage);
    setPage(null);
    getRounds(language, before, HISTORY_PAGE)
      .then((answer) => live && showPage(answer))
      .catch((failure) => live && setError(failure));
    return () => {
      live = false;
    };
  }, [before, language]);
  const checked = useChecks(page?.rounds ?? null);

  if (error) return <p role="alert">{errorText(errorKeyOf(error))}</p>;
  if (!page) return <p className="muted">{t('history.loading')}</p>;
  if (page.rounds.length === 0) return <p>{t('history.none')}</p>;
  const ids = page.rounds.map((r) => r.id);
  const [from, to] = [Math.min(...ids), Math.max(...ids)];
  return (
    <section aria-labelledby="faucet-history-heading">
      <h2 id="faucet-history-heading">
        {t('history.caption', { from: formatNumber(from, language), to: formatNumber(to, language) })}
      </h2>
      <table className="data-table stack faucet-history">
        <thead>
          <tr>
            <th scope="col">{t('history.round')}</th>
            <th scope="col">{t('history.drawn')}</th>
            <th scope="col">{t('history.winner')}</th>
            <th scope="col">{t('history.block')}</th>
            <th scope="col">{t('history.check')}</th>
          </tr>
        </thead>
        <tbody>
          {page.rounds.map((r) => {
            const ok = checked.get(r.id);
            return (
              <tr key={r.id} data-testid={`history-round-${r.id}`}>
                <th scope="row">
                  <span className="history-row-label">{t('history.round')} </span>
                  {formatNumber(r.id, language)} <br />
                  <span className="small muted history-players">{t('players.count', { count: r.playerCount })}</span>
                </th>
                <td data-label={t('history.drawn')}>
                  {r.announcedAt ? formatDateTime(new Date(r.announcedAt), language) : '—'}
                </td>
                <td data-label={t('history.winner')}>
                  {r.winner ? (
                    <span>
                      <code>{r.winner.address}</code> {formatMoney(r.winner.amount, r.winner.currency, language)}
                    </span>
                  ) : (
                    <span className="muted">{t('history.nobody')}</span>
                  )}
                </td>
                <td data-label={t('history.block')}>
                  {r.mix ? (
                    <span>
                      {formatNumber(r.mix.height, language)}{' '}
                      <code title={r.mix.hash ?? undefined}>{r.mix.hash ? short(r.mix.hash) : '—'}</code>
                    </span>
                  ) : (
                    '—'
                  )}
                </td>
                <td data-label={t('history.check')} data-testid="history-check" className="history-check">
                  {ok === undefined ? (
                    <span className="muted">{t('history.checking')}</span>
                  ) : ok ? (
                    `✓ ${t('history.holds')}`
                  ) : (
                    <strong className="history-fails">✗ {t('history.fails')}</strong>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="history-paging">
        {cursors.length > 1 ? (
          <button type="button" className="button small" onClick={() => setCursors((c) => c.slice(0, -1))}>
            {t('history.newer')}
          </button>
        ) : null}{' '}
        {page.next !== null ? (
          <button type="button" className="button small" onClick={() => setCursors((c) => [...c, page.next])}>
            {t('history.older')}
          </button>
        ) : null}
      </p>
      <p>
        <a href={exportUrl(from, to)} download={`muntly-faucet-rounds-${from}-${to}.json`}>
          {t('history.download')}
        </a>
      </p>
      <FileCheck />
      <p className="small">
        {t('history.format')} <code>docs/faucet-format.md</code>
      </p>
    </section>
  );
}

type FileResult = { kind: 'holds'; count: number } | { kind: 'fails'; rounds: number[] } | { kind: 'unreadable' };

/**
 * A downloaded file checked here, in the browser, by the code the page checks its rounds with
 * (domain/faucet.ts verifyRounds): nothing is sent anywhere, and no command is needed.
 */
function FileCheck() {
  const { t } = useTranslation('faucet');
  const language = usePageLanguage();
  const [result, setResult] = React.useState<FileResult | null>(null);
  const check = async (file: File | undefined) => {
    setResult(null);
    if (!file) return;
    let parsed: RoundsFile;
    try {
      parsed = JSON.parse(await file.text()) as RoundsFile;
    } catch {
      setResult({ kind: 'unreadable' });
      return;
    }
    const checked = verifyRounds(parsed);
    if (checked.problems.length > 0) setResult({ kind: 'unreadable' });
    else if (checked.ok) setResult({ kind: 'holds', count: checked.rounds.length });
    else setResult({ kind: 'fails', rounds: checked.rounds.filter((r) => !r.ok).map((r) => r.id) });
  };
  return (
    <div className="field faucet-file-check">
      <label htmlFor="faucet-file-check">{t('history.checkFile')}</label>
      <input
        id="faucet-file-check"
        type="file"
        accept="application/json,.json"
        onChange={(event) => void check(event.target.files?.[0])}
        aria-describedby="faucet-file-result"
      />
      <p id="faucet-file-result" role="status" data-testid="faucet-file-result">
        {result?.kind === 'holds'
          ? `✓ ${t('history.fileHolds', { rounds: formatNumber(result.count, language) })}`
          : null}
        {result?.kind === 'fails' ? (
          <strong className="history-fails">
            ✗{' '}
            {t('history.fileFails', {
              rounds: listFormat(language, { type: 'conjunction' }).format(
                result.rounds.map((id) => formatNumber(id, language)),
              ),
            })}
          </strong>
        ) : null}
        {result?.kind === 'unreadable' ? (
          <strong className="history-fails">{t('history.fileUnreadable')}</strong>
        ) : null}
      </p>
    </div>
  );
}
