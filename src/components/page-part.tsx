import * as React from 'react';

/**
 * The page below Gatsby's own wrappers, as a Suspense boundary of its own (gatsby-browser and
 * gatsby-ssr wrap every page in it), so that React 18 hydrates it apart from the root: the root's
 * task then holds only Gatsby's router and the page's translations, and the page itself hydrates
 * in short slices (React yields every few milliseconds while it hydrates a boundary), instead of
 * in one long task that keeps a phone from answering a tap. Nothing here suspends, so the
 * (empty) fallback never shows.
 */
export function PagePart({ children }: { children: React.ReactNode }) {
  return <React.Suspense fallback={null}>{children}</React.Suspense>;
}
