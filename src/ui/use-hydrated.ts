import * as React from 'react';

/**
 * False while the visitor sees the server's HTML, true once React runs the page. A form that is
 * in the server's HTML would, submitted before then, post the bare HTML form: a reload that loses
 * what was typed. Its submit button waits for this.
 *
 * What changes once hydrated (a styled picker for the browser's select, a form's live parts) is
 * rendered as a transition: in short slices React can interrupt for a tap, rather than in one
 * task right after hydration, when a phone is busiest.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = React.useState(false);
  React.useEffect(() => React.startTransition(() => setHydrated(true)), []);
  return hydrated;
}
