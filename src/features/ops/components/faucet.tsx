import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { usePolled } from '../../../app/use-polled';
import { formatMoney } from '../../../i18n/format';
import { Field } from '../../../ui/field';
import { Facts, LoadFailed, Money, OutcomeLine, useAction, useOps, TableHead, When } from './parts';
import type { Round } from '#domain/contracts/faucet';

/** How many finished rounds the console lists under the current one. */
const RECENT_ROUNDS = 5;

/**
 * The faucet: running or paused, its budget, the current round; pause (the round in play is
 * played out, then GAME OVER), resume, add budget; the latest rounds with their winners, as
 * anyone sees them on the faucet page.
 */
export function Faucet() {
  const { t } = useTranslation('ops');
  const { api, language } = useOps();
  const status = usePolled(() => api.faucet(), 'faucet', 15_000);
  const action = useAction();
  const [eur, setEur] = React.useState('');
  const roundId = status.data?.round?.id ?? null;
  const rounds = usePolled(async () => {
    if (roundId === null) return [];
    const ids = Array.from({ length: RECENT_ROUNDS + 1 }, (_, i) => roundId - i).filter((id) => id >= 1);
    const answers = await Promise.all(
      ids.map((id) =>
        api.round(id).then(
          (r) => r.round,
          () => null,
        ),
      ),
    );
    return answers.filter((r): r is Round => r !== null);
  }, `rounds:${roundId}`);

  const run = async (what: 'pause' | 'resume' | 'fund') => {
    const done = await action.run(
      () => (what === 'fund' ? api.fundFaucet(eur.trim().replace(',', '.')) : api.faucetAction(what)),
      (state) => t(`faucet.done.${what}`, { budget: formatMoney(state.budgetEur, 'EUR', language) }),
    );
    if (done) {
      setEur('');
      status.reload();
    }
  };

  if (status.error && !status.data) return <LoadFailed error={status.error} retry={status.reload} />;
  if (!status.data) return <p className="muted">{t('common.loading')}</p>;
  const state = status.data;
  return (
    <>
      <Facts
        items={[
          [t('faucet.state'), state.paused ? t('faucet.paused') : t('faucet.running')],
          [t('faucet.budget'), <Money key="b" amount={state.budgetEur} currency="EUR" />],
          [
            t('faucet.round'),
            state.round
              ? t('faucet.roundState', {
                  id: state.round.id,
                  state: t(`faucet.states.${state.round.state}` as 'faucet.states.new', {
                    defaultValue: state.round.state,
                  }),
                })
              : t('faucet.noRound'),
          ],
        ]}
      />
      <div className="ops-decision">
        {state.paused ? (
          <button type="button" className="button primary" disabled={action.busy} onClick={() => void run('resume')}>
            {t('faucet.resume')}
          </button>
        ) : (
          <button type="button" className="button" disabled={action.busy} onClick={() => void run('pause')}>
            {t('faucet.pause')}
          </button>
        )}
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            void run('fund');
          }}
        >
          <Field
            id="faucet-fund"
            label={t('faucet.fundAmount')}
            value={eur}
            onChange={(e) => setEur(e.target.value)}
            inputMode="decimal"
            autoComplete="off"
            required
            maxLength={20}
          />
          <button type="submit" className="button" disabled={action.busy || !eur.trim()}>
            {t('faucet.fund')}
          </button>
        </form>
      </div>
      <p className="small muted">{t('faucet.pauseHint')}</p>
      <OutcomeLine outcome={action.outcome} />

      <h2>{t('faucet.recent')}</h2>
      {rounds.data && rounds.data.length === 0 ? <p>{t('faucet.noRound')}</p> : null}
      {rounds.data && rounds.data.length > 0 ? (
        <table className="data-table stack ops-table">
          <TableHead
            headings={(['round', 'state', 'started', 'players', 'winner'] as const).map((c) =>
              t(`faucet.columns.${c}`),
            )}
          />
          <tbody>
            {rounds.data.map((round) => (
              <tr key={round.id}>
                <td data-label={t('faucet.columns.round')}>#{round.id}</td>
                <td data-label={t('faucet.columns.state')}>
                  {t(`faucet.states.${round.state}` as 'faucet.states.new', { defaultValue: round.state })}
                </td>
                <td data-label={t('faucet.columns.started')}>
                  <When iso={round.schedule.startsAt} />
                </td>
                <td data-label={t('faucet.columns.players')} className="num">
                  {round.playerCount}
                </td>
                <td data-label={t('faucet.columns.winner')} data-empty={round.winner ? undefined : ''}>
                  {round.winner ? (
                    <span>
                      <Money amount={round.winner.amount} currency={round.winner.currency} /> →{' '}
                      <code className="address">{round.winner.address}</code>
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}
