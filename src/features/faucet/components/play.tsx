import { Link } from 'gatsby';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { isFaucetCurrency } from '#domain/faucet';
import { localizePath } from '#domain/languages';
import { errorKeyOf, useErrorText } from '../../../app/error-text';
import { useSession } from '../../../app/session';
import { formatMoney } from '../../../i18n/format';
import { routes } from '../../../i18n/routes';
import { CurrencyPicker, type CurrencyOption } from '../../../ui/currency-picker';
import { LocalizedLink, usePageLanguage } from '../../../ui/localized-link';
import { enterRound, getAddresses, getMyEntries, type Address, type MyEntry } from '../api/faucet';
import { useRound } from './round-context';

/**
 * The player's panel: a visitor is invited to log in (and comes back here); a logged-in player
 * picks one of their own reception addresses and enters while registrations are open, then sees
 * whether they won when the winner is announced.
 */
export function FaucetPlay() {
  const { t } = useTranslation('faucet');
  const { t: ta } = useTranslation('auth');
  const language = usePageLanguage();
  const { status } = useSession();
  if (status === 'unknown') return <p className="muted">{ta('session.checking')}</p>;
  if (status === 'anonymous') {
    const login = `${localizePath(routes.login, language)}?returnTo=${encodeURIComponent(window.location.pathname)}`;
    return (
      <section aria-labelledby="faucet-play">
        <h2 id="faucet-play">{t('play.heading')}</h2>
        <p>{t('play.loginText')}</p>
        <Link to={login} className="button primary">
          {t('play.login')}
        </Link>
      </section>
    );
  }
  return <PlayForm />;
}

/** The player's addresses as choices of the currency picker: logo and code, the address, its label. */
const addressOptions = (addresses: Address[]): CurrencyOption[] =>
  addresses.map((a) => ({ value: a.address, code: a.currency, name: a.address, note: a.label ?? undefined }));

function PlayForm() {
  const { t } = useTranslation('faucet');
  const errorText = useErrorText();
  const language = usePageLanguage();
  const { getAccessTokenSilently } = useSession();
  const { round, setMine } = useRound();
  const [addresses, setAddresses] = React.useState<Address[] | null>(null);
  // An entry just made is added before the list is read again, without the server's createdAt.
  const [entries, setEntries] = React.useState<Omit<MyEntry, 'createdAt'>[]>([]);
  const [selected, setSelected] = React.useState('');
  const [busy, setBusy] = React.useState(false);
  const [error, setError] = React.useState<unknown>(null);
  const token = React.useCallback(async () => String(await getAccessTokenSilently()), [getAccessTokenSilently]);
  const roundId = round?.id;

  React.useEffect(() => {
    let live = true;
    token()
      .then((value) => Promise.all([getAddresses(value, language), getMyEntries(value, language)]))
      .then(
        ([all, mine]) => {
          if (!live) return;
          const usable = all.filter((a) => isFaucetCurrency(a.currency));
          // One transition for the three: the form and the list render together, in slices.
          React.startTransition(() => {
            setAddresses(usable);
            setSelected((current) => current || usable[0]?.address || '');
            setEntries(mine);
          });
        },
        (e: unknown) => live && setError(e),
      );
    return () => {
      live = false;
    };
    // Reloaded for every round: a new round means a new chance (and no entry yet).
  }, [token, language, roundId]);

  const mine = round ? (entries.find((e) => e.roundId === round.id) ?? null) : null;
  React.useEffect(() => setMine(mine), [mine, setMine]);
  if (!round) return null;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const entry = await enterRound(await token(), language, selected);
      setEntries((list) => [{ ...entry, result: 'pending', amount: null }, ...list]);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };

  const code = error ? errorKeyOf(error) : null;
  const message = code ? (
    <p role="alert">
      {errorText(code)}
      {code === 'bank_verification_required' ? (
        <>
          {' '}
          <LocalizedLink to="my_identity">{t('play.bankLink')}</LocalizedLink>
        </>
      ) : null}
    </p>
  ) : null;

  let body: React.ReactNode;
  if (mine && round.state === 'winner_announced') {
    const won = round.winner?.ticket === mine.ticket;
    body = won ? (
      <p role="status" className="phase phase-verified">
        {t('play.won', { amount: formatMoney(round.winner!.amount, round.winner!.currency, language) })}{' '}
        <LocalizedLink to="wallet_balances">{t('play.balances')}</LocalizedLink>
      </p>
    ) : (
      <p role="status" className="phase">
        {t('play.lost')}
      </p>
    );
  } else if (mine) {
    body = <p role="status">{t('play.entered', { address: `${mine.address} (${mine.currency})` })}</p>;
  } else if (round.state === 'game_over') {
    body = null;
  } else if (addresses && addresses.length === 0) {
    body = (
      <p>
        {t('play.noAddress')} <LocalizedLink to="wallet_receive">{t('play.createAddress')}</LocalizedLink>
      </p>
    );
  } else if (addresses) {
    const open = round.state === 'registrations_open';
    body = (
      <form className="inline-form" onSubmit={submit}>
        <CurrencyPicker
          id="faucet-address"
          label={t('play.address')}
          choices="addresses"
          options={addressOptions(addresses)}
          value={selected}
          onChange={setSelected}
        />
        <button type="submit" className="button primary" disabled={!open || busy || !selected}>
          {busy ? t('play.submitting') : t('play.submit')}
        </button>
        {!open ? <p className="muted small">{round.state === 'new' ? t('play.notYet') : t('play.closed')}</p> : null}
      </form>
    );
  }
  return (
    <section aria-labelledby="faucet-play">
      <h2 id="faucet-play">{t('play.heading')}</h2>
      {message}
      {body}
    </section>
  );
}
