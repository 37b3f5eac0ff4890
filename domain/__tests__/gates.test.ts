import { currencyByCode } from '../currencies';
import {
  exchangeRefusal,
  missingVerifications,
  nextVerification,
  outflowRefusal,
  requiredVerifications,
  verificationUnlocks,
  type ExchangeFacts,
  type Phases,
  type WalletOutflowFacts,
} from '../gates';
import { SEND_STATUSES, SEND_STATUSES_MOVING_VALUE, SEND_TRANSITIONS } from '../wallet';
import type { VerificationKind } from '../verification';

describe('verification gates', () => {
  it('says what each kind unlocks, in the order a customer needs them, from the same rules the gates judge by (issue 35)', () => {
    expect(verificationUnlocks()).toEqual([
      { kind: 'bank', unlocks: 'wallet' },
      { kind: 'mobile', unlocks: 'weekly', aboveEurMinor: 100_000n },
      { kind: 'id', unlocks: 'weekly', aboveEurMinor: 300_000n },
      { kind: 'business', unlocks: 'business_account' },
      { kind: 'address', unlocks: 'on_request' },
    ]);
    // Each weekly amount is where the gate starts to ask for the kind.
    for (const unlock of verificationUnlocks()) {
      if (unlock.unlocks !== 'weekly') continue;
      expect(requiredVerifications({ weeklyEurMinor: unlock.aboveEurMinor })).not.toContain(unlock.kind);
      expect(requiredVerifications({ weeklyEurMinor: unlock.aboveEurMinor + 1n })).toContain(unlock.kind);
    }
  });

  it('names the next verification to take up: the bank account, then mobile, then ID, then none', () => {
    expect(nextVerification({})).toBe('bank');
    expect(nextVerification({ bank: 'step_2', mobile: 'verified' })).toBe('bank');
    expect(nextVerification({ bank: 'verified' })).toBe('mobile');
    expect(nextVerification({ bank: 'verified', mobile: 'verified' })).toBe('id');
    expect(nextVerification({ bank: 'verified', mobile: 'verified', id: 'verified' })).toBeNull();
  });

  it('needs a verified bank account for the wallet features', () => {
    expect(requiredVerifications({ usesWallet: true })).toEqual(['bank']);
    expect(missingVerifications({ bank: 'step_2' }, { usesWallet: true })).toEqual(['bank']);
    expect(missingVerifications({ bank: 'verified' }, { usesWallet: true })).toEqual([]);
  });

  it('needs mobile above 1,000 EUR a week and ID above 3,000 EUR', () => {
    expect(requiredVerifications({ weeklyEurMinor: 100_000n })).toEqual([]);
    expect(requiredVerifications({ weeklyEurMinor: 100_001n })).toEqual(['mobile']);
    expect(requiredVerifications({ weeklyEurMinor: 300_000n })).toEqual(['mobile']);
    expect(requiredVerifications({ weeklyEurMinor: 300_001n })).toEqual(['mobile', 'id']);
    expect(missingVerifications({ mobile: 'verified' }, { weeklyEurMinor: 500_000n })).toEqual(['id']);
  });

  it('needs business verification when paying from a business account', () => {
    expect(requiredVerifications({ fromBusinessAccount: true })).toEqual(['business']);
    expect(missingVerifications({}, { usesWallet: true, fromBusinessAccount: true, weeklyEurMinor: 0n })).toEqual([
      'bank',
      'business',
    ]);
  });
});

describe('the exchange gate', () => {
  const btc = currencyByCode('BTC')!;
  const usdt = currencyByCode('USDT')!;
  const verified = (...kinds: VerificationKind[]): Phases =>
    Object.fromEntries(kinds.map((kind) => [kind, 'verified']));
  const base: ExchangeFacts = {
    path: 'anonymous_order',
    type: 'buy',
    buySellEnabled: true,
    from: null,
    to: btc,
    fromWallet: false,
    toWallet: false,
    phases: null,
  };

  it('says first what can be said without an amount: buying off, a wallet-only currency, a login, the bank', () => {
    expect(exchangeRefusal({ ...base, buySellEnabled: false })).toEqual({ code: 'buy_sell_disabled' });
    expect(exchangeRefusal({ ...base, type: 'swap', from: btc, to: usdt, buySellEnabled: false })).toEqual({
      code: 'own_wallet_only',
      field: 'currencyTo',
    });
    expect(exchangeRefusal({ ...base, toWallet: true })).toEqual({ code: 'login_required' });
    expect(exchangeRefusal({ ...base, path: 'deposit_conversion', toWallet: true, phases: {} })).toEqual({
      code: 'bank_verification_required',
    });
    expect(
      exchangeRefusal({ ...base, path: 'deposit_conversion', to: usdt, toWallet: true, phases: verified('bank') }),
    ).toBeNull();
  });

  it('then the caps and the week, with the amount counted', () => {
    const account = { ...base, path: 'account_order' as const, phases: verified('bank') };
    expect(exchangeRefusal({ ...account, amountEurMinor: 3_000_001n, newCustomer: false, weeklyEurMinor: 0n })).toEqual(
      { code: 'order_limit', field: 'amount' },
    );
    expect(
      exchangeRefusal({ ...account, amountEurMinor: 10_001n, newCustomer: true, weeklyEurMinor: 10_001n }),
    ).toEqual({ code: 'first_order_limit', field: 'amount' });
    expect(
      exchangeRefusal({ ...account, amountEurMinor: 10_000n, newCustomer: true, weeklyEurMinor: 100_000n }),
    ).toBeNull();
    expect(exchangeRefusal({ ...account, amountEurMinor: 100n, newCustomer: false, weeklyEurMinor: 100_001n })).toEqual(
      { code: 'mobile_verification_required', field: 'amount' },
    );
    expect(
      exchangeRefusal({
        ...account,
        phases: verified('bank', 'mobile'),
        amountEurMinor: 100n,
        newCustomer: false,
        weeklyEurMinor: 300_001n,
      }),
    ).toEqual({
      code: 'id_verification_required',
      field: 'amount',
    });
    expect(exchangeRefusal({ ...base, amountEurMinor: 100n, newCustomer: false, weeklyEurMinor: 100_001n })).toEqual({
      code: 'weekly_limit_login_required',
      field: 'amount',
    });
    // An operator looked at a held anonymous order and released it: past the cap, nothing else.
    expect(
      exchangeRefusal({
        ...base,
        amountEurMinor: 100n,
        newCustomer: false,
        weeklyEurMinor: 100_001n,
        releasedByOperator: true,
      }),
    ).toBeNull();
    expect(
      exchangeRefusal({
        ...base,
        amountEurMinor: 3_000_001n,
        newCustomer: false,
        weeklyEurMinor: 0n,
        releasedByOperator: true,
      }),
    ).toEqual({ code: 'order_limit', field: 'amount' });
  });
});

describe('the outflow gate', () => {
  const open: WalletOutflowFacts = {
    frozen: false,
    pausedForSeconds: 0,
    book: 'allowed',
    phases: { bank: 'verified' },
    balanceCovers: true,
    weeklyEurMinor: 0n,
  };
  const login = {
    ageSeconds: 60,
    maxAgeSeconds: 900,
    secondFactor: false,
    dayEurMinor: 50_000n,
    secondFactorAboveEurMinor: 100_000n,
  };

  it('answers in the order a user can act on: frozen, paused, the login, the bank, the balance, the week, the book, the second factor', () => {
    expect(outflowRefusal({ ...open, frozen: true, pausedForSeconds: 10 })).toEqual({ code: 'account_frozen' });
    expect(outflowRefusal({ ...open, pausedForSeconds: 10 })).toEqual({ code: 'sends_paused', retryAfter: 10 });
    expect(outflowRefusal({ ...open, login: { ...login, ageSeconds: null } })).toEqual({
      code: 'login_required_recent',
    });
    expect(outflowRefusal({ ...open, login: { ...login, ageSeconds: 901 } })).toEqual({
      code: 'login_required_recent',
    });
    expect(outflowRefusal({ ...open, phases: {} })).toEqual({ code: 'bank_verification_required' });
    expect(outflowRefusal({ ...open, balanceCovers: false, weeklyEurMinor: 500_000n })).toEqual({
      code: 'insufficient_balance',
      field: 'amount',
    });
    expect(outflowRefusal({ ...open, weeklyEurMinor: 100_001n, book: 'not_in_book' })).toEqual({
      code: 'mobile_verification_required',
      field: 'amount',
    });
    expect(outflowRefusal({ ...open, book: 'not_in_book' })).toEqual({ code: 'address_not_in_book', field: 'address' });
    expect(outflowRefusal({ ...open, book: { onHoldForSeconds: 3600 } })).toEqual({
      code: 'address_on_hold',
      field: 'address',
      retryAfter: 3600,
    });
    expect(outflowRefusal({ ...open, login })).toBeNull();
  });

  it('asks for a second factor by the last 24 hours, not by one outflow', () => {
    expect(outflowRefusal({ ...open, login: { ...login, dayEurMinor: 100_000n } })).toBeNull();
    expect(outflowRefusal({ ...open, login: { ...login, dayEurMinor: 100_001n } })).toEqual({
      code: 'second_factor_required',
    });
    expect(outflowRefusal({ ...open, login: { ...login, dayEurMinor: 100_001n, secondFactor: true } })).toBeNull();
    // Being started (no login yet), nothing about the login is judged.
    expect(outflowRefusal({ ...open })).toBeNull();
  });
});

describe('what counts as value that left, from the send state machine', () => {
  it('every status a confirmed send reaches, except failed (its money came back)', () => {
    expect([...SEND_STATUSES_MOVING_VALUE].sort()).toEqual(['awaiting_approval', 'completed', 'processing']);
    // Each status of the machine is reachable from the code or is the code itself.
    const reached = new Set(['awaiting_code', ...Object.values(SEND_TRANSITIONS).flat()]);
    expect([...reached].sort()).toEqual([...SEND_STATUSES].sort());
  });
});
