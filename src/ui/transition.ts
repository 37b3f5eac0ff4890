import * as React from 'react';

/**
 * `set`, made to render what it sets as a transition. React 18 renders an update made outside an
 * event handler (a fetch's answer: the currencies, the balances, the orders) in one task it
 * cannot interrupt, however much the answer puts on screen: a whole form or table, a task of
 * tens of milliseconds on a phone while the page is still starting. A transition renders the
 * same in slices, between which the phone answers a tap; what is already on screen stays until
 * the new state is ready, so nothing blinks.
 */
export function asTransition<T>(set: (value: T) => void): (value: T) => void {
  return (value) => React.startTransition(() => set(value));
}
