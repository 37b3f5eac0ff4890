import * as React from 'react';
import type { FieldValues, Path, PathValue, UseFormReturn } from 'react-hook-form';

const storageKey = (formName: string) => `muntly:draft:${formName}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage refused (privacy settings): the form simply keeps no draft
  }
}

/** The text and checkbox values worth keeping: changed from the form's defaults, and not excluded. */
function draftOf(
  values: Record<string, unknown>,
  exclude: readonly string[],
  defaults: Record<string, unknown> = {},
): Record<string, string | boolean> {
  const draft: Record<string, string | boolean> = {};
  for (const [name, value] of Object.entries(values)) {
    if (exclude.includes(name) || value === (defaults[name] ?? '')) continue;
    if (typeof value === 'string' || typeof value === 'boolean') draft[name] = value;
  }
  return draft;
}

/**
 * Keeps what was typed into a react-hook-form form as a draft in this tab's sessionStorage, and
 * puts it back when the form mounts again: switching the language loads the page anew, and the
 * person should not type it all again. Only text and checkbox values that differ from the form's
 * defaults are kept; `exclude` names the
 * fields never to store (one-time codes, passwords never belong in a draft). Call the returned
 * `clear` once the form was sent successfully.
 */
export function useDraft<T extends FieldValues>(
  formName: string,
  form: UseFormReturn<T>,
  exclude: readonly (keyof T & string)[] = [],
): { clear: () => void } {
  const excluded = React.useRef(exclude);
  const restored = React.useRef(false);

  React.useEffect(() => {
    const store = storage();
    if (!store) return undefined;
    if (!restored.current) {
      restored.current = true;
      try {
        const saved: unknown = JSON.parse(store.getItem(storageKey(formName)) ?? 'null');
        if (saved && typeof saved === 'object' && !Array.isArray(saved)) {
          const known = form.getValues() as Record<string, unknown>;
          for (const [name, value] of Object.entries(draftOf(saved as Record<string, unknown>, excluded.current))) {
            // Only values of the type the field has (a stale draft of another shape is ignored).
            if (known[name] === undefined || typeof known[name] === typeof value)
              form.setValue(name as Path<T>, value as PathValue<T, Path<T>>, { shouldDirty: true });
          }
        }
      } catch {
        store.removeItem(storageKey(formName));
      }
    }
    const subscription = form.watch((values) => {
      const draft = draftOf(
        values as Record<string, unknown>,
        excluded.current,
        form.formState.defaultValues as Record<string, unknown> | undefined,
      );
      try {
        if (Object.keys(draft).length === 0) store.removeItem(storageKey(formName));
        else store.setItem(storageKey(formName), JSON.stringify(draft));
      } catch {
        // storage full or refused: no draft
      }
    });
    return () => subscription.unsubscribe();
  }, [formName, form]);

  const clear = React.useCallback(() => storage()?.removeItem(storageKey(formName)), [formName]);
  return { clear };
}
