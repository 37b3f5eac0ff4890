import * as React from 'react';

/**
 * False while the visitor sees the server's HTML, true once React runs the page. A form that is
 * in the server's HTML would, submitted before then, post the bare HTML form: a reload that loses
 * what was typed. Its submit button waits for this.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = React.useState(false);
  React.useEffect(() => setHydrated(true), []);
  return hydrated;
}
