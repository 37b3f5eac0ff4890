import { CURRENCIES } from '#domain/currencies';
import { minorToDecimal, eur } from '#domain/money';
import { eurValueMinor } from '#domain/quotes';
import { balancesOf } from '../ledger/service';
import type { Balances, WalletBalance } from '#domain/contracts/wallet';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';

/** Balances per listed currency, from the ledger, with their EUR value at the current rate. */
export async function walletBalances(db: Db, rates: RatesAdapter, ownerId: string): Promise<Balances> {
  const [held, current] = await Promise.all([balancesOf(db, ownerId), rates.current()]);
  const byCurrency = new Map(held.map((h) => [h.currency, h.balance]));
  let totalEurMinor = 0n;
  // Euros arrive by bank deposit (DEPOSIT reference) and pay for "use my wallet" buys.
  const euros = byCurrency.get('EUR') ?? 0n;
  totalEurMinor += euros;
  const eurRow: WalletBalance = {
    currency: 'EUR',
    name: 'Euro',
    balance: eur(euros),
    eurEstimate: eur(euros),
    support: 'full',
  };
  const balances = CURRENCIES.map((currency): WalletBalance => {
    const balance = byCurrency.get(currency.code) ?? 0n;
    const eurMinor = eurValueMinor(balance, currency.decimals, current.rates[currency.code] ?? '0');
    totalEurMinor += eurMinor;
    return {
      currency: currency.code,
      name: currency.name,
      balance: minorToDecimal(balance, currency.decimals),
      eurEstimate: eur(eurMinor),
      support: currency.support,
      ...(currency.support === 'partial' ? { notice: 'This currency is only partially supported.' } : {}),
    };
  });
  return { balances: [eurRow, ...balances], totalEur: eur(totalEurMinor), ratesAt: current.at };
}
