import * as React from 'react';
import { useTranslation } from 'react-i18next';
import {
  LIABILITIES_FORMAT,
  verifyInclusion,
  verifySnapshot,
  type InclusionCheck,
  type PublishedTree,
} from '#domain/liabilities';
import { decimalToMinor, minorToDecimal } from '#domain/money';
import { apiOrigin } from '../../../config';
import { formatMoney, formatNumber, numberFormat } from '../../../i18n/format';
import { CurrencyIcon } from '../../../ui/currency-icon';
import { LocalizedLink } from '../../../ui/localized-link';
import { formatInstant, OwedHeldTable, ProofExplained } from '../../../ui/solvency';
import { getMyProofs, getPublishedSnapshot, getSnapshots, type MyProof, type SnapshotSummary } from '../api/wallet';
import { useWalletApi } from './use-wallet-api';
import '../wallet.css';

type Currency = MyProof['currencies'][number];
type Published = Awaited<ReturnType<typeof getPublishedSnapshot>>;
/** A currency's check: against the tree the published snapshot has for it (none: it has no tree of that currency). */
type Checked = { currency: string; tree: PublishedTree | null; check: InclusionCheck | null; amountMatches: boolean };

const short = (hash: string) => `${hash.slice(0, 12)}…${hash.slice(-6)}`;
const Mark = ({ ok }: { ok: boolean }) => <span aria-hidden="true">{ok ? '✓ ' : '✗ '}</span>;

/** The file a customer downloads as "my proof": the snapshot's entry of GET /api/wallet/proof, for the verifier tools. */
export const myProofFileName = (snapshotId: number) => `muntly-proof-${snapshotId}-mine.json`;
export const myProofFile = (proof: MyProof) => JSON.stringify({ format: LIABILITIES_FORMAT, ...proof }, null, 2);

/**
 * The proof of liabilities, checked here in the browser with the code the server built it with
 * (domain/liabilities.ts): the published snapshot is downloaded, and for each currency each of
 * the user's leaves is recomputed from its amount, its place, the user's account id and nonce,
 * and followed up to the published root. Below, what Muntly owed against what it held.
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
        setSelected(mine.proofs[0]?.snapshotId ?? null);
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
  return (
    <>
      {proofs.length === 0 ? <p>{t('proof.none')}</p> : null}
      {proofs.length > 1 ? (
        <p>
          <label htmlFor="proof-snapshot">{t('proof.chooseSnapshot')}</label>{' '}
          <select
            id="proof-snapshot"
            value={selected ?? ''}
            onChange={(event) => setSelected(Number(event.target.value))}
          >
            {proofs.map((p) => (
              <option key={p.snapshotId} value={p.snapshotId}>
                {t('proof.snapshot', { id: p.snapshotId, date: formatInstant(p.takenAt, language) })}
              </option>
            ))}
          </select>
        </p>
      ) : null}
      {proof ? <Inclusion key={proof.snapshotId} proof={proof} summary={summary} /> : null}
      <ProofExplained />
      <p>
        <LocalizedLink to="proof">{t('proof.publicPage')}</LocalizedLink>
      </p>
    </>
  );
}

function Inclusion({ proof, summary }: { proof: MyProof; summary: SnapshotSummary | null }) {
  const { t } = useTranslation('wallet');
  const { language, errorText } = useWalletApi();
  const [published, setPublished] = React.useState<Published | null>(null);
  const [checked, setChecked] = React.useState<Checked[]>([]);
  const [error, setError] = React.useState<unknown>(null);

  React.useEffect(() => {
    let live = true;
    (async () => {
      let snapshot: Published;
      try {
        snapshot = await getPublishedSnapshot(language, proof.snapshotId);
      } catch (failure) {
        if (live) setError(failure);
        return;
      }
      if (!live) return;
      setPublished(snapshot);
      for (const currency of proof.currencies) {
        // After the paint: hashing a few paths is quick, but a slow phone shows the page first.
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (!live) return;
        const tree = snapshot.trees?.find((candidate) => candidate.currency === currency.currency) ?? null;
        const check = tree ? verifyInclusion(currency, proof.owner, proof.nonce, tree) : null;
        const amountMatches =
          !!check && decimalToMinor(currency.balance, currency.decimals)?.toString() === check.amount;
        setChecked((done) => [...done, { currency: currency.currency, tree, check, amountMatches }]);
      }
    })();
    return () => {
      live = false;
    };
  }, [proof, language]);

  // The snapshot's statement holds (format, instant, every root): its digest is what the proofs of control sign.
  const statement = published ? verifySnapshot(published) : null;
  const listed = published?.reserves
    ? new Map(published.reserves.currencies.map((c) => [c.currency, c.addresses?.length ?? 0]))
    : undefined;
  const snapshotFile = summary?.file ?? `/proof/${proof.snapshotId}.json`;
  return (
    <>
      <section aria-labelledby="proof-snapshot-heading">
        <h2 id="proof-snapshot-heading">
          {t('proof.snapshot', { id: proof.snapshotId, date: formatInstant(proof.takenAt, language) })}
        </h2>
        <dl className="proof-identity">
          <dt>{t('proof.owner')}</dt>
          <dd>
            <code className="hash">{proof.owner}</code>
          </dd>
          <dt>{t('proof.nonce')}</dt>
          <dd>
            <code className="hash">{proof.nonce}</code>
          </dd>
        </dl>
        <p className="muted small">{t('proof.nonceNote')}</p>
        {error ? <p role="alert">{errorText(error)}</p> : null}
        {statement && !statement.ok ? (
          <p role="alert" className="proof-problem">
            {t('proof.statementBad')}
          </p>
        ) : null}
        {proof.currencies.map((currency) => (
          <CurrencyCheck
            key={currency.currency}
            currency={currency}
            checked={checked.find((c) => c.currency === currency.currency) ?? null}
            failed={!!error}
          />
        ))}
        <DownloadMine proof={proof} />
      </section>
      <section aria-labelledby="owed-held-heading">
        <h2 id="owed-held-heading">{t('proof.reserves.heading')}</h2>
        <p>{t('proof.reserves.lead')}</p>
        {summary ? <OwedHeldTable summary={summary} listed={listed} language={language} /> : null}
        <p className="muted small">{t('proof.reserves.note')}</p>
        <p className="small">
          {t('proof.reserves.file')}{' '}
          <a href={`${apiOrigin}${snapshotFile}`} download>
            {snapshotFile.replace(/^.*\//, '')}
          </a>
        </p>
      </section>
    </>
  );
}

/** "My proof": the user's own leaves and paths of this snapshot as a file, for the verifier tools. */
function DownloadMine({ proof }: { proof: MyProof }) {
  const { t } = useTranslation('wallet');
  const download = () => {
    const url = URL.createObjectURL(new Blob([myProofFile(proof)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = myProofFileName(proof.snapshotId);
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="proof-download">
      <button type="button" className="button" onClick={download}>
        {t('proof.downloadMine')}
      </button>
      <p className="muted small">{t('proof.downloadMineNote', { file: myProofFileName(proof.snapshotId) })}</p>
    </div>
  );
}

function CurrencyCheck({
  currency,
  checked,
  failed,
}: {
  currency: Currency;
  checked: Checked | null;
  failed: boolean;
}) {
  const { t } = useTranslation('wallet');
  const { language } = useWalletApi();
  const amount = (minor: string | null) =>
    minor === null ? '—' : formatMoney(minorToDecimal(BigInt(minor), currency.decimals), currency.currency, language);
  // A place in the tree is a name more than a quantity: written without grouping ("1116", not "1 116").
  const place = (index: number) => numberFormat(language, { useGrouping: false }).format(index);
  const headingId = `proof-${currency.currency}`;
  const check = checked?.check ?? null;
  const ok = !!check && check.ok && checked!.amountMatches;
  return (
    <section aria-labelledby={headingId} className="proof-currency">
      <h3 id={headingId}>
        <CurrencyIcon code={currency.currency} />
        {t('proof.currencyHeading', {
          currency: currency.currency,
          balance: formatMoney(currency.balance, currency.currency, language),
        })}
      </h3>
      <p className="muted small">{t('proof.owedIncludes')}</p>
      {!checked ? (
        failed ? null : (
          <p className="muted">{t('proof.checking')}</p>
        )
      ) : !check || !checked.tree ? (
        <p role="status" className="proof-result proof-bad" data-testid={`proof-result-${currency.currency}`}>
          <Mark ok={false} />
          {t('proof.result.noTree', { currency: currency.currency })}
        </p>
      ) : (
        <>
          <ol className="proof-steps">
            <li>
              <Mark ok={check.rootMatches} />
              {t('proof.steps.root', {
                total: amount(checked.tree.root.sum),
                leaves: formatNumber(checked.tree.leafCount, language),
              })}
              <code className="hash proof-root">{checked.tree.root.hash}</code>
            </li>
            <li>
              <Mark ok={checked.amountMatches && check.leaves.length > 0} />
              {t('proof.steps.leaves', {
                number: formatNumber(check.leaves.length, language),
                balance: amount(check.amount),
              })}
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
                        {place(leaf.index)}
                      </th>
                      <td className="num" data-label={t('proof.table.amount')}>
                        {amount(leaf.value)}
                      </td>
                      <td data-label={t('proof.table.leafHash')}>
                        <span>
                          <code title={leaf.path.leaf?.[0]}>{leaf.path.leaf ? short(leaf.path.leaf[0]) : '—'}</code>
                        </span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </li>
            <li>
              <Mark ok={check.leaves.length > 0 && check.leaves.every((l) => l.path.ok)} />
              {t('proof.steps.paths', { levels: formatNumber(Math.log2(checked.tree.leafCount), language) })}
              {check.leaves.map((leaf) => (
                <details key={leaf.index} className="proof-path">
                  <summary>
                    <Mark ok={leaf.path.ok} />
                    {t('proof.pathOf', { index: place(leaf.index) })}
                  </summary>
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
              <Mark ok={check.distinct} />
              {t('proof.steps.distinct')}
            </li>
          </ol>
          <p
            role="status"
            className={ok ? 'proof-result proof-ok' : 'proof-result proof-bad'}
            data-testid={`proof-result-${currency.currency}`}
          >
            <Mark ok={ok} />
            {ok
              ? t('proof.result.ok', { currency: currency.currency })
              : t('proof.result.bad', { currency: currency.currency })}
          </p>
        </>
      )}
    </section>
  );
}
