import type { ErrorTextKey } from './error-text';
import type { FieldErrors, FieldValues, Path, Resolver } from 'react-hook-form';

/**
 * A form's rules as one plain function, handed to react-hook-form as its resolver. Each rule
 * reports a field and the error code whose text the form shows next to it (`errors:<code>`), and
 * all of them report at once. Forms whose rules are their own (the order form, the order
 * lookup) use this rather than a schema library: zod alone is ~24 KB gzipped of the page's first
 * load, for what is a handful of ifs. Forms that share their schema with the API (identity,
 * support) keep it.
 */
export type Fail<T> = (field: keyof T & string, code: ErrorTextKey) => void;
export type Rules<T> = (values: T, fail: Fail<T>) => void | Promise<void>;

/** The problems `rules` finds in `values`, by field (the first code per field). */
export async function checkRules<T>(
  rules: Rules<T>,
  values: T,
): Promise<Partial<Record<keyof T & string, ErrorTextKey>>> {
  const found: Partial<Record<keyof T & string, ErrorTextKey>> = {};
  await rules(values, (field, code) => {
    found[field] ??= code;
  });
  return found;
}

export function rulesResolver<T extends FieldValues>(rules: Rules<T>): Resolver<T> {
  return async (values) => {
    const found = await checkRules(rules, values);
    const errors: Record<string, { type: string; message: string }> = {};
    for (const [field, code] of Object.entries(found)) errors[field] = { type: 'rule', message: String(code) };
    return Object.keys(errors).length === 0
      ? { values, errors: {} }
      : { values: {}, errors: errors as FieldErrors<T> & Record<Path<T>, unknown> };
  };
}

/**
 * A resolver whose code arrives when the form is first checked rather than with the page: a
 * form that validates with a schema library (zod, ~24 KB gzipped) loads it then. `load` should
 * be a dynamic import with webpack's prefetch comment, so the browser fetches it in its idle time
 * and the first check rarely waits. If it cannot be fetched (offline, a new deployment), the form
 * is sent unchecked: the API checks the same rules and answers with the field in error.
 */
export function lazyResolver<T extends FieldValues>(load: () => Promise<Resolver<T>>): Resolver<T> {
  let loaded: Promise<Resolver<T> | null> | undefined;
  return async (values, context, options) => {
    loaded ??= load().catch(() => {
      loaded = undefined; // asked again at the next check
      return null;
    });
    const resolver = await loaded;
    return resolver ? resolver(values, context, options) : { values, errors: {} };
  };
}
