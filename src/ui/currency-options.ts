/**
 * What the currency picker (currency-picker.tsx) and its combobox (currency-combobox.tsx) share:
 * the choices, their props, and the search.
 */

/**
 * One choice: the code ('' for an "all currencies" choice, shown without a logo), its name in the
 * page's language, an optional note; `value` when what is chosen is not the currency itself but
 * something in it (one of the user's addresses: the name is then the address, the note its label).
 */
export type CurrencyOption = { code: string; name: string; note?: string; value?: string };

export const valueOf = (o: CurrencyOption): string => o.value ?? o.code;

export type CurrencyPickerProps = {
  id: string;
  label: string;
  options: readonly CurrencyOption[];
  value: string;
  onChange: (code: string) => void;
  onBlur?: () => void;
  name?: string;
  error?: string;
  /** Ids of hints that describe the field, read after its error. */
  describedBy?: string;
  /** What the choices are, for the picker's own texts: currencies, or addresses (options with a `value`). */
  choices?: 'currencies' | 'addresses';
};

/** Lower case without accents, so that "eth", "ETH", "Éther" and "эфир" all find what they name. */
export const searchable = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim();

/**
 * The options whose name or code contains the query (all of them for an empty query), best
 * first: the exact code, then codes and names that start with it, then names with a word that
 * does ("cash"), then the rest ("eth" finds Ethereum before Tether).
 */
export function filterCurrencies(options: readonly CurrencyOption[], query: string): CurrencyOption[] {
  const q = searchable(query);
  if (!q) return [...options];
  const rank = (o: CurrencyOption): number => {
    const code = searchable(o.code);
    const name = searchable(o.name);
    if (code === q) return 0;
    if (code.startsWith(q) || name.startsWith(q)) return 1;
    if (name.split(/[\s-]+/).some((word) => word.startsWith(q))) return 2;
    return code.includes(q) || name.includes(q) || searchable(o.note ?? '').includes(q) ? 3 : -1;
  };
  return options
    .map((option) => ({ option, rank: rank(option) }))
    .filter((o) => o.rank >= 0)
    .sort((a, b) => a.rank - b.rank)
    .map((o) => o.option);
}

export const optionText = (o: CurrencyOption | null): string => (!o ? '' : o.code ? `${o.name} (${o.code})` : o.name);

export const describedByOf = (id: string, error?: string, hints?: string) =>
  [error ? `${id}-error` : '', hints ?? ''].filter(Boolean).join(' ') || undefined;
