import { useCombobox } from 'downshift';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CurrencyIcon } from './currency-icon';
import { FieldError } from './field';
import { useHydrated } from './use-hydrated';
import './currency-picker.css';

/**
 * One choice: the code ('' for an "all currencies" choice, shown without a logo), its name in the
 * page's language, an optional note; `value` when what is chosen is not the currency itself but
 * something in it (one of the user's addresses: the name is then the address, the note its label).
 */
export type CurrencyOption = { code: string; name: string; note?: string; value?: string };

const valueOf = (o: CurrencyOption): string => o.value ?? o.code;

type Props = {
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

const optionText = (o: CurrencyOption | null): string => (!o ? '' : o.code ? `${o.name} (${o.code})` : o.name);

/**
 * A searchable currency list (a WAI-ARIA combobox, from downshift): logo, name in the page's
 * language and code; typing filters by name or code, arrows move, Enter chooses, Escape closes and
 * brings back the chosen currency's name, as leaving the field does.
 * Controlled (`value` + `onChange` with the code), so react-hook-form uses it through a Controller.
 * In the server's HTML, before React runs, it is a plain select with the same label and choices.
 */
export const CurrencyPicker = React.forwardRef<HTMLInputElement, Props>(function CurrencyPicker(props, ref) {
  const hydrated = useHydrated();
  return hydrated ? <Combobox {...props} inputRef={ref} /> : <NativeSelect {...props} />;
});

function NativeSelect({ id, label, options, value, onChange, onBlur, name, error, describedBy }: Props) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedByOf(id, error, describedBy)}
      >
        {options.map((o) => (
          <option key={valueOf(o)} value={valueOf(o)}>
            {o.note ? `${optionText(o)} – ${o.note}` : optionText(o)}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

const describedByOf = (id: string, error?: string, hints?: string) => [error ? `${id}-error` : '', hints ?? ''].filter(Boolean).join(' ') || undefined;

function Combobox({ id, label, options, value, onChange, onBlur, name, error, describedBy, choices = 'currencies', inputRef }: Props & { inputRef: React.ForwardedRef<HTMLInputElement> }) {
  const { t } = useTranslation('common');
  const selected = options.find((o) => valueOf(o) === value) ?? null;
  const [query, setQuery] = React.useState('');
  const items = React.useMemo(() => filterCurrencies(options, query), [options, query]);
  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps, getToggleButtonProps } = useCombobox<CurrencyOption>({
    id: `${id}-combobox`,
    inputId: id,
    labelId: `${id}-label`,
    menuId: `${id}-listbox`,
    items,
    // Typing highlights the best match, so Enter takes it.
    defaultHighlightedIndex: 0,
    itemToString: optionText,
    itemToKey: (o) => (o ? valueOf(o) : o),
    selectedItem: selected,
    onSelectedItemChange: ({ selectedItem }) => {
      if (selectedItem) onChange(valueOf(selectedItem));
    },
    // What the visitor types filters; what downshift writes back (the chosen currency) shows all again.
    onInputValueChange: ({ inputValue, type }) => setQuery(type === useCombobox.stateChangeTypes.InputChange ? (inputValue ?? '') : ''),
    onIsOpenChange: ({ isOpen: open }) => {
      if (!open) setQuery('');
    },
    // Text that chose nothing never stays: leaving the field (unless it takes the highlighted
    // match) or Escape brings back the chosen currency's name, and Escape never clears the choice.
    stateReducer: (state, { type, changes }) => {
      if (type !== useCombobox.stateChangeTypes.InputBlur && type !== useCombobox.stateChangeTypes.InputKeyDownEscape) return changes;
      const kept = type === useCombobox.stateChangeTypes.InputBlur ? (changes.selectedItem ?? state.selectedItem) : state.selectedItem;
      return { ...changes, selectedItem: kept, inputValue: optionText(kept) };
    },
  });

  return (
    <div className={`field currency-picker${isOpen ? ' open' : ''}`}>
      <label {...getLabelProps()}>{label}</label>
      <div className="currency-picker-control">
        {selected?.code && !query ? <CurrencyIcon code={selected.code} className="currency-picker-selected-icon" /> : null}
        <input
          {...getInputProps({
            ref: inputRef,
            name,
            onBlur,
            onFocus: (e) => e.currentTarget.select(),
            spellCheck: false,
            autoComplete: 'off',
            'aria-invalid': error ? true : undefined,
            'aria-describedby': describedByOf(id, error, describedBy),
          })}
          className={selected?.code && !query ? 'with-icon' : undefined}
        />
        <button
          type="button"
          className="currency-picker-toggle"
          {...getToggleButtonProps({ 'aria-label': t(choices === 'addresses' ? 'currencyPicker.showAllAddresses' : 'currencyPicker.showAll'), tabIndex: -1 })}
        >
          <span aria-hidden="true">▾</span>
        </button>
      </div>
      {/* Named by the label only while open: closed, it is empty and hidden, and the label names the input alone. */}
      <ul className="currency-picker-menu" {...getMenuProps(isOpen ? {} : { 'aria-labelledby': undefined })}>
        {isOpen
          ? items.map((item, index) => (
              <li
                key={valueOf(item) || 'all'}
                className={`${index === highlightedIndex ? 'highlighted' : ''}${valueOf(item) === value ? ' selected' : ''}`.trim() || undefined}
                {...getItemProps({ item, index })}
              >
                {item.code ? <CurrencyIcon code={item.code} /> : <span className="currency-picker-no-icon" aria-hidden="true" />}
                <span className="currency-picker-name">{item.name}</span>
                {item.code ? <span className="currency-picker-code">{item.code}</span> : null}
                {item.note ? <span className="currency-picker-note small muted">{item.note}</span> : null}
              </li>
            ))
          : null}
      </ul>
      <p className="currency-picker-empty small muted" role="status">
        {isOpen && items.length === 0 ? t(choices === 'addresses' ? 'currencyPicker.noMatchAddress' : 'currencyPicker.noMatch', { query }) : ''}
      </p>
      <FieldError id={id} error={error} />
    </div>
  );
}
