import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { verifyInclusion, type InclusionCheck, type PublishedTree } from '../../../../domain/liabilities';
import { minorToDecimal } from '../../../../domain/money';
import { CurrencyIcon } from '../../../components/currency-icon';
import { apiOrigin } from '../../../config';
import { formatDate, formatMoney, formatNumber } from '../../../i18n/format';
import { getMyProofs, getPublishedTree, getSnapshots, type MyProof, type SnapshotSummary } from '../api/wallet';
import { useWalletApi } from './use-wallet-api';
import '../wallet.css';

type Currency = MyProof['currencies'][number];
type Checked = { currency: string; tree: PublishedTree; check: InclusionCheck } | { currency: string; failed: true };

const short = (hash: string) => `${hash.slice(0, 12)}…${hash.slice(-6)}`;
const Mark = ({ ok }: { ok: boolean }) => <span aria-hidden="true">{ok ? '✓ ' : '✗ '}</span>;

/**
 * The proof of liabilities, checked here in the browser with the code the server built it with
 * (domain/liabilities.ts): for each currency the published tree is downloaded and checked node by
 * node, then each of the user's leaves is recomputed from its amount, its place and the user's
 * nonce, found in the tree, and followed up to the published root. Below, what Muntly owed
 * against what its addresses held at the same instant.
 */
export function Proof() {
  const { t } = useTranslation('wallet');
  const { token, language, errorText } = useWalletApi();
  const [proofs, setProofs] = React.useState<MyProof[] | null>(null);
  const [snapshots, setSnapshots] = React.useState<SnapshotSummary[]>([]);
  const [error, setError] = React.useState<unknown>(null);
  const [selected, setSelected] = React.useState<number | null>(null);

  React.useEffect(() => {
    let live = true;
    (async () => {
      try {
        const [mine, published] = await Promise.all([getMyProofs(await token(), language), getSnapshots(language)]);
        if (!live) return;
        setProofs(mine.proofs);
        setSnapshots(published.snapshots);
        setSelected(mine.proofs[0]?.snapshotId ?? published.snapshots[0]?.snapshotId ?? null);
      } catch (failure) {
        if (live) setError(failure);
      }
    })();
    return () => {
      live = false;
    };
  }, [token, language]);

  if (error) return <p role="alert">{errorText(error)}</p>;
  if (!proofs) return <p className="muted">{t('proof.loading')}</p>;
  const proof = proofs.find((p) => p.snapshotId === selected) ?? null;
  const summary = snapshots.find((s) => s.snapshotId === selected) ?? null;
  const when = (iso: string) => formatDate(new Date(iso), language);
  return (
    <>
      {proofs.length === 0 ? <p>{t('proof.none')}</p> : null}
      {proofs.length > 1 ? (
        <p>
          <label htmlFor="proof-snapshot">{t('proof.chooseSnapshot')}</label>{' '}
          <select id="proof-snapshot" value={selected ?? ''} onChange={(event) => setSelected(Number(event.target.value))}>
            {proofs.map((p) => (
              <option key={p.snapshotId} value={p.snapshotId}>
                {t('proof.snapshot', { id: p.snapshotId, date: when(p.takenAt) })}
              </option>
            ))}
          </select>
        </p>
      ) : null}
      {proof ? <Inclusion key={proof.snapshotId} proof={proof} /> : null}
      {summary ? <OwedAndHeld summary={summary} /> : null}
    </>
  );
}

function Inclusion({ proof }: { proof: MyProof }) {
  const { t } = useTranslation('wallet');
  const { language, errorText } = useWalletApi();
  const [checked, setChecked] = React.useState<Checked[]>([]);
  const [error, setError] = React.useState<unknown>(null);

  React.useEffect(() => {
    let live = true;
    (async () => {
      for (const currency of proof.currencies) {
        let result: Checked;
        try {
          const tree = await getPublishedTree(language, currency.file);
          // After the paint: a large tree takes a moment to hash on a slow phone.
          await new Promise((resolve) => setTimeout(resolve, 0));
          result = { currency: currency.currency, tree, check: verifyInclusion(currency, proof.nonce, tree) };
        } catch (failure) {
          if (live) setError(failure);
          result = { currency: currency.currency, failed: true };
        }
        if (!live) return;
        setChecked((done) => [...done, result]);
      }
    })();
    return () => {
      live = false;
    };
  }, [proof, language]);

  return (
    <section aria-labelledby="proof-snapshot-heading">
      <h2 id="proof-snapshot-heading">{t('proof.snapshot', { id: proof.snapshotId, date: formatDate(new Date(proof.takenAt), language) })}</h2>
      <p className="small">{t('proof.nonce')}</p>
      <p>
        <code className="hash">{proof.nonce}</code>
      </p>
      <p className="muted small">{t('proof.nonceNote')}</p>
      {error ? <p role="alert">{errorText(error)}</p> : null}
      {proof.currencies.map((currency) => {
        const done = checked.find((c) => c.currency === currency.currency);
        return <CurrencyCheck key={currency.currency} currency={currency} checked={done && 'check' in done ? done : null} failed={!!done && 'failed' in done} />;
      })}
    </section>
  );
}

function CurrencyCheck({ currency, checked, failed }: { currency: Currency; checked: { tree: PublishedTree; check: InclusionCheck } | null; failed: boolean }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const amount = (minor: string | null) => (minor === null ? '—' : formatMoney(minorToDecimal(BigInt(minor), currency.decimals), currency.currency, language));
  const headingId = `proof-${currency.currency}`;
  const check = checked?.check;
  return (
    <section aria-labelledby={headingId} className="proof-currency">
      <h3 id={headingId}>
        <CurrencyIcon code={currency.currency} />
        {t('proof.currencyHeading', { currency: currency.currency, balance: formatMoney(currency.balance, currency.currency, language) })}
      </h3>
      {!check ? (
        failed ? null : (
          <p className="muted">{t('proof.checking')}</p>
        )
      ) : (
        <>
          <ol className="proof-steps">
            <li>
              <Mark ok={check.tree.ok} />
              {t('proof.steps.tree', { leaves: formatNumber(check.tree.leafCount, language), total: amount(check.tree.total) })}
              {check.tree.problems.length ? <span className="proof-problem"> {check.tree.problems[0]}</span> : null}
            </li>
            <li>
              <Mark ok={check.leaves.every((l) => l.foundInTree)} />
              {t('proof.steps.leaves', { number: formatNumber(check.leaves.length, language), balance: amount(check.balance) })}
              <table className="data-table stack proof-table">
                <thead>
                  <tr>
                    <th scope="col">{t('proof.table.position')}</th>
                    <th scope="col">{t('proof.table.amount')}</th>
                    <th scope="col">{t('proof.table.leafHash')}</th>
                  </tr>
                </thead>
                <tbody>
                  {check.leaves.map((leaf) => (
                    <tr key={leaf.index}>
                      <th scope="row" className="num">
                        <span className="proof-row-label">{t('proof.table.position')} </span>
                        {formatNumber(leaf.index, language)}
                      </th>
                      <td className="num" data-label={t('proof.table.amount')}>
                        {amount(leaf.value)}
                      </td>
                      <td data-label={t('proof.table.leafHash')}>
                        <span>
                          <Mark ok={leaf.foundInTree} />
                          <code title={leaf.path.leaf?.[0]}>{leaf.path.leaf ? short(leaf.path.leaf[0]) : '—'}</code>
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
            <li>
              <Mark ok={check.leaves.every((l) => l.siblingsPublished && l.path.complete && l.path.steps.every((s) => s.nonNegative))} />
              {t('proof.steps.paths')}
              {check.leaves.map((leaf) => (
                <details key={leaf.index} className="proof-path">
                  <summary>{t('proof.pathOf', { index: formatNumber(leaf.index, language) })}</summary>
                  <table className="data-table stack proof-table">
                    <thead>
                      <tr>
                        <th scope="col">{t('proof.table.level')}</th>
                        <th scope="col">{t('proof.table.side')}</th>
                        <th scope="col">{t('proof.table.sibling')}</th>
                        <th scope="col">{t('proof.table.parent')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {leaf.path.steps.map((step) => (
                        <tr key={step.level}>
                          <th scope="row" className="num">
                            <span className="proof-row-label">{t('proof.table.level')} </span>
                            {formatNumber(step.level + 1, language)}
                          </th>
                          <td data-label={t('proof.table.side')}>{t(`proof.side.${step.side}`)}</td>
                          <td data-label={t('proof.table.sibling')}>
                            <span>
                              <code title={step.sibling[0]}>{short(step.sibling[0])}</code> {amount(step.sibling[1])}
                            </span>
                          </td>
                          <td data-label={t('proof.table.parent')}>
                            <span>
                              <Mark ok={step.nonNegative} />
                              <code title={step.parent[0]}>{short(step.parent[0])}</code> {amount(step.parent[1])}
                            </span>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </details>
              ))}
            </li>
            <li>
              <Mark ok={check.rootMatches && check.leaves.every((l) => l.path.rootMatches)} />
              {t('proof.steps.root', { total: amount(checked!.tree.root.sum) })} <code className="hash">{checked!.tree.root.hash}</code>
            </li>
          </ol>
          <p role="status" className={check.ok ? 'proof-result proof-ok' : 'proof-result proof-bad'} data-testid={`proof-result-${currency.currency}`}>
            <Mark ok={check.ok} />
            {check.ok ? t('proof.result.ok', { currency: currency.currency }) : t('proof.result.bad', { currency: currency.currency })}
          </p>
        </>
      )}
    </section>
  );
}

function OwedAndHeld({ summary }: { summary: SnapshotSummary }) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const money = (value: string, currency: string) => formatMoney(value, currency, language);
  return (
    <section aria-labelledby="owed-held-heading">
      <h2 id="owed-held-heading">{t('proof.reserves.heading')}</h2>
      <p>{t('proof.reserves.lead')}</p>
      <table className="data-table stack">
        <thead>
          <tr>
            <th scope="col">{t('proof.reserves.currency')}</th>
            <th scope="col">{t('proof.reserves.owed')}</th>
            <th scope="col">{t('proof.reserves.held')}</th>
          </tr>
        </thead>
        <tbody>
          {summary.currencies.map((c) => (
            <tr key={c.currency}>
              <th scope="row">
                <CurrencyIcon code={c.currency} />
                {c.currency}
              </th>
              <td className="num" data-label={t('proof.reserves.owed')}>
                {money(c.total, c.currency)}
              </td>
              <td className="num" data-label={t('proof.reserves.held')}>
                {c.held === null ? <span className="muted">{t('proof.reserves.notOnChain')}</span> : money(c.held, c.currency)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">{t('proof.reserves.note')}</p>
      <p className="small">
        {t('proof.reserves.file')}{' '}
        <a href={`${apiOrigin}${summary.file}`} download>
          {summary.file.replace(/^.*\//, '')}
        </a>
      </p>
    </section>
  );
}
