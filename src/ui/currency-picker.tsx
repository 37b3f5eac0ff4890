import * as React from 'react';
import { describedByOf, optionText, valueOf, type CurrencyPickerProps as Props } from './currency-options';
import { FieldError } from './field';
import { useHydrated } from './use-hydrated';
import { whenIdle } from './when-idle';
import './currency-picker.css';

export { filterCurrencies, searchable, type CurrencyOption } from './currency-options';

/**
 * The combobox (downshift, ~9 KB gzipped) is in its own chunk, not in the page's first load: it
 * is fetched in the browser's idle time once the page runs (webpack's prefetch link), or at once
 * when the visitor reaches for the select. Until it has arrived, the select works as it is.
 */
const loadCombobox = () => import(/* webpackPrefetch: true */ './currency-combobox');
type ComboboxModule = Awaited<ReturnType<typeof loadCombobox>>;
let loadedCombobox: ComboboxModule | null = null;
let loadingCombobox: Promise<ComboboxModule | null> | undefined;
const requestCombobox = (): Promise<ComboboxModule | null> =>
  (loadingCombobox ??= loadCombobox().then(
    (loaded) => (loadedCombobox = loaded),
    () => {
      loadingCombobox = undefined; // offline: the select stays, and reaching for it again asks again
      return null;
    },
  ));

/** Fetches the combobox now (tests render pages whose code has all arrived). */
export const preloadCurrencyCombobox = (): Promise<unknown> => requestCombobox();

/**
 * A searchable currency list (a WAI-ARIA combobox, from downshift): logo, name in the page's
 * language and code; typing filters by name or code, arrows move, Enter chooses, Escape closes and
 * brings back the chosen currency's name, as leaving the field does.
 * Controlled (`value` + `onChange` with the code), so react-hook-form uses it through a Controller.
 * In the server's HTML, before React runs, it is a plain select with the same label and choices;
 * it stays one until the combobox's code has arrived (a choice made on it counts), and if the
 * select has the focus then, the combobox's input takes it.
 */
export const CurrencyPicker = React.forwardRef<HTMLInputElement, Props>(function CurrencyPicker(props, ref) {
  const hydrated = useHydrated();
  const [module, setModule] = React.useState<ComboboxModule | null>(loadedCombobox);
  const takeFocus = React.useRef(false);
  const { id } = props;
  const adopt = React.useCallback(
    (loaded: ComboboxModule | null) => {
      if (!loaded) return;
      takeFocus.current = document.activeElement?.id === id;
      setModule(loaded);
    },
    [id],
  );
  const arrived = module !== null;
  React.useEffect(() => {
    if (!hydrated || arrived) return undefined;
    let live = true;
    const cancel = whenIdle(() => void requestCombobox().then((loaded) => live && adopt(loaded)));
    return () => {
      live = false;
      cancel();
    };
  }, [hydrated, arrived, adopt]);
  React.useEffect(() => {
    if (arrived && takeFocus.current) document.getElementById(id)?.focus();
  }, [arrived, id]);
  if (!hydrated || !module) {
    const reach = () => void (hydrated && requestCombobox().then(adopt));
    return <NativeSelect {...props} onFocus={reach} onPointerDown={reach} />;
  }
  const { Combobox } = module;
  return <Combobox {...props} inputRef={ref} />;
});

function NativeSelect({
  id,
  label,
  options,
  value,
  onChange,
  onBlur,
  name,
  error,
  describedBy,
  onFocus,
  onPointerDown,
}: Props & { onFocus?: () => void; onPointerDown?: () => void }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onBlur={onBlur}
        onFocus={onFocus}
        onPointerDown={onPointerDown}
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
