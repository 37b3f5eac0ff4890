import { useCombobox } from 'downshift';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { CurrencyIcon } from './currency-icon';
import {
  describedByOf,
  filterCurrencies,
  optionText,
  valueOf,
  type CurrencyOption,
  type CurrencyPickerProps as Props,
} from './currency-options';
import { FieldError } from './field';

/**
 * The currency picker once its code has arrived (currency-picker.tsx): downshift's WAI-ARIA
 * combobox, in a chunk of its own.
 */
export function Combobox({
  id,
  label,
  options,
  value,
  onChange,
  onBlur,
  name,
  error,
  describedBy,
  choices = 'currencies',
  inputRef,
}: Props & { inputRef: React.ForwardedRef<HTMLInputElement> }) {
  const { t } = useTranslation('common');
  const selected = options.find((o) => valueOf(o) === value) ?? null;
  const [query, setQuery] = React.useState('');
  const items = React.useMemo(() => filterCurrencies(options, query), [options, query]);
  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps, getToggleButtonProps } =
    useCombobox<CurrencyOption>({
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
      onInputValueChange: ({ inputValue, type }) =>
        setQuery(type === useCombobox.stateChangeTypes.InputChange ? (inputValue ?? '') : ''),
      onIsOpenChange: ({ isOpen: open }) => {
        if (!open) setQuery('');
      },
      // Text that chose nothing never stays: leaving the field (unless it takes the highlighted
      // match) or Escape brings back the chosen currency's name, and Escape never clears the choice.
      stateReducer: (state, { type, changes }) => {
        if (type !== useCombobox.stateChangeTypes.InputBlur && type !== useCombobox.stateChangeTypes.InputKeyDownEscape)
          return changes;
        const kept =
          type === useCombobox.stateChangeTypes.InputBlur
            ? (changes.selectedItem ?? state.selectedItem)
            : state.selectedItem;
        return { ...changes, selectedItem: kept, inputValue: optionText(kept) };
      },
    });

  return (
    <div className={`field currency-picker${isOpen ? ' open' : ''}`}>
      <label {...getLabelProps()}>{label}</label>
      <div className="currency-picker-control">
        {selected?.code && !query ? (
          <CurrencyIcon code={selected.code} className="currency-picker-selected-icon" />
        ) : null}
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
          {...getToggleButtonProps({
            'aria-label': t(choices === 'addresses' ? 'currencyPicker.showAllAddresses' : 'currencyPicker.showAll'),
            tabIndex: -1,
          })}
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
                className={
                  `${index === highlightedIndex ? 'highlighted' : ''}${valueOf(item) === value ? ' selected' : ''}`.trim() ||
                  undefined
                }
                {...getItemProps({ item, index })}
              >
                {item.code ? (
                  <CurrencyIcon code={item.code} />
                ) : (
                  <span className="currency-picker-no-icon" aria-hidden="true" />
                )}
                <span className="currency-picker-name">{item.name}</span>
                {item.code ? <span className="currency-picker-code">{item.code}</span> : null}
                {item.note ? <span className="currency-picker-note small muted">{item.note}</span> : null}
              </li>
            ))
          : null}
      </ul>
      <p className="currency-picker-empty small muted" role="status">
        {isOpen && items.length === 0
          ? t(choices === 'addresses' ? 'currencyPicker.noMatchAddress' : 'currencyPicker.noMatch', { query })
          : ''}
      </p>
      <FieldError id={id} error={error} />
    </div>
  );
}
