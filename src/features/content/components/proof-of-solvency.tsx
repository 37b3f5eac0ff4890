import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { apiOrigin, siteUrl } from '../../../config';
import { formatMoney, formatNumber } from '../../../i18n/format';
import { CurrencyIcon } from '../../../ui/currency-icon';
import { LocalizedLink } from '../../../ui/localized-link';
import { formatInstant, OwedHeldTable, ProofExplained } from '../../../ui/solvency';
import { publicRequest } from '../api/public-api';
import type { ControlProof, Reserves, SnapshotSummary, SnapshotsResponse } from '#domain/contracts/liabilities';
import type { Language } from '#domain/languages';
import type { PublishedSnapshot } from '#domain/liabilities';

type Loaded = { summary: SnapshotSummary; reserves: Reserves | null; controls: ControlProof[] } | { summary: null };

const isPositive = (decimal: string | null | undefined) =>
  !!decimal && /[1-9]/.test(decimal) && !decimal.trim().startsWith('-');

/** Where a verifier fetches the files: the API's origin, or the site's own when they are one. */
const filesOrigin = () => apiOrigin || siteUrl;

/**
 * The public proof of solvency (/proof/): the latest snapshot's totals owed against what was
 * held, read from GET /api/liabilities, the whole snapshot (GET /api/liabilities/:id, for the
 * listed house addresses and the deposit addresses' count) and the proofs of control. The files
 * themselves are linked for anyone who checks without this page.
 */
export function ProofOfSolvency({ language }: { language: Language }) {
  const { t } = useTranslation('proof');
  const [loaded, setLoaded] = React.useState<Loaded | null>(null);
  const [failed, setFailed] = React.useState(false);

  React.useEffect(() => {
    let live = true;
    (async () => {
      try {
        const { snapshots } = await publicRequest<SnapshotsResponse>(language, '/api/liabilities?limit=1');
        const summary = snapshots[0] ?? null;
        if (!summary) {
          if (live) setLoaded({ summary: null });
          return;
        }
        const [snapshot, control] = await Promise.all([
          publicRequest<PublishedSnapshot & { reserves?: Reserves }>(
            language,
            `/api/liabilities/${summary.snapshotId}`,
          ),
          publicRequest<{ proofs: ControlProof[] }>(language, `/api/liabilities/${summary.snapshotId}/control`),
        ]);
        if (live) setLoaded({ summary, reserves: snapshot.reserves ?? null, controls: control.proofs });
      } catch {
        if (live) setFailed(true);
      }
    })();
    return () => {
      live = false;
    };
  }, [language]);

  return (
    <>
      {failed ? (
        <p role="alert">{t('public.failed')}</p>
      ) : !loaded ? (
        <p className="muted">{t('public.loading')}</p>
      ) : !loaded.summary ? (
        <p>{t('public.none')}</p>
      ) : (
        <Snapshot summary={loaded.summary} reserves={loaded.reserves} controls={loaded.controls} language={language} />
      )}
      <ProofExplained />
      <Verify snapshotId={loaded?.summary?.snapshotId ?? null} />
    </>
  );
}

function Snapshot({
  summary,
  reserves,
  controls,
  language,
}: {
  summary: SnapshotSummary;
  reserves: Reserves | null;
  controls: ControlProof[];
  language: Language;
}) {
  const { t } = useTranslation('proof');
  const listed = reserves ? new Map(reserves.currencies.map((c) => [c.currency, c.addresses?.length ?? 0])) : undefined;
  // Address by address, the currencies that matter here: those owed, and any other the house held some of.
  const shown = (reserves?.currencies ?? []).filter(
    (c) => summary.currencies.some((owed) => owed.currency === c.currency) || isPositive(c.held),
  );
  return (
    <>
      <section aria-labelledby="solvency-snapshot">
        <h2 id="solvency-snapshot">{t('public.snapshot', { id: formatNumber(summary.snapshotId, language) })}</h2>
        <p>{t('public.takenAt', { time: formatInstant(summary.takenAt, language) })}</p>
        <OwedHeldTable summary={summary} listed={listed} language={language} />
        {summary.digest ? (
          <p className="small">
            {t('public.digest')} <code className="hash">{summary.digest}</code>
          </p>
        ) : null}
      </section>
      {shown.length > 0 ? (
        <section aria-labelledby="solvency-addresses">
          <h2 id="solvency-addresses">{t('public.addressesHeading')}</h2>
          <p>{t('public.addressesLead')}</p>
          {shown.map((reserve) => (
            <Reserve
              key={reserve.currency}
              reserve={reserve}
              controls={controls.filter((c) => c.currency === reserve.currency)}
              language={language}
            />
          ))}
        </section>
      ) : null}
      <section aria-labelledby="solvency-files">
        <h2 id="solvency-files">{t('public.filesHeading')}</h2>
        <ul className="solvency-files">
          <li>
            {t('public.fileSnapshot')} <a href={`${apiOrigin}${summary.file}`}>{summary.file}</a>
          </li>
          <li>
            {t('public.fileLatest')} <a href={`${apiOrigin}/proof/latest.json`}>/proof/latest.json</a>
          </li>
          <li>
            {t('public.fileControl')}{' '}
            <a
              href={`${apiOrigin}/proof/${summary.snapshotId}/control.json`}
            >{`/proof/${summary.snapshotId}/control.json`}</a>
          </li>
        </ul>
      </section>
    </>
  );
}

function Reserve({
  reserve,
  controls,
  language,
}: {
  reserve: Reserves['currencies'][number];
  controls: ControlProof[];
  language: Language;
}) {
  const { t } = useTranslation('proof');
  const id = `solvency-${reserve.currency}`;
  const addresses = reserve.addresses ?? [];
  const money = (value: string | null) =>
    value === null ? t('table.notRead') : formatMoney(value, reserve.currency, language);
  return (
    <section aria-labelledby={id} className="solvency-reserve">
      <h3 id={id}>
        <CurrencyIcon code={reserve.currency} />
        {reserve.currency}
      </h3>
      <p className="small">
        {reserve.height === null || reserve.height === undefined
          ? t('public.noChain')
          : t('public.readAt', { height: formatNumber(reserve.height, language) })}
        {reserve.blockHash ? (
          <>
            {' '}
            <code className="hash">{reserve.blockHash}</code>
          </>
        ) : null}
      </p>
      {addresses.length === 0 ? (
        <p className="muted">{t('public.noAddresses')}</p>
      ) : (
        <ul className="solvency-addresses">
          {addresses.map((a) => {
            const proof = controls.find((c) => c.address === a.address);
            return (
              <li key={a.address}>
                <code className="hash">{a.address}</code>
                <span className="solvency-address-facts">
                  <span>{t(`public.roles.${a.role}`)}</span>
                  <span className="num">{money(a.balance)}</span>
                  {proof ? (
                    <span className="solvency-covered">
                      <span aria-hidden="true">✓ </span>
                      {t('public.signed')} <code>{proof.scheme}</code>
                    </span>
                  ) : (
                    <span className="muted">{t('public.unsigned')}</span>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      {reserve.depositAddresses ? (
        <p className="small">
          {t('public.deposits', {
            number: formatNumber(reserve.depositAddresses.count, language),
            amount: money(reserve.depositAddresses.balance),
          })}
        </p>
      ) : null}
      <p className="small">{t('public.held', { amount: money(reserve.held) })}</p>
    </section>
  );
}

/** A stand-in for a placeholder that is shown as code: the translated sentence is split around it. */
const CODE = '\u0001';
const WithCode = ({ text, code }: { text: string; code: string }) => {
  const [before, after] = text.split(CODE);
  return (
    <>
      {before}
      <code>{code}</code>
      {after}
    </>
  );
};

/** How anyone checks the files without this page: the repository's two verifiers and the format. */
function Verify({ snapshotId }: { snapshotId: number | null }) {
  const { t } = useTranslation('proof');
  const file = snapshotId === null ? '/proof/latest.json' : `/proof/${snapshotId}.json`;
  return (
    <section aria-labelledby="solvency-verify">
      <h2 id="solvency-verify">{t('public.verifyHeading')}</h2>
      <p>{t('public.verifyLead')}</p>
      <p>{t('public.verifyNode', { tool: 'Node.js' })}</p>
      <pre className="solvency-command">
        <code>{`npm run verify:liabilities -- ${filesOrigin()}${file}`}</code>
      </pre>
      <p>{t('public.verifyPython', { tool: 'Python 3' })}</p>
      <pre className="solvency-command">
        <code>{`curl -o snapshot.json ${filesOrigin()}${file}\npython3 tools/verify_proof.py snapshot.json`}</code>
      </pre>
      <p>
        <WithCode text={t('public.verifyFormat', { path: CODE })} code="docs/proof-format.md" />
      </p>
      <p>
        {t('public.verifyMine')} <LocalizedLink to="wallet_proof">{t('public.walletLink')}</LocalizedLink>
      </p>
    </section>
  );
}
