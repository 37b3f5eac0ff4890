import * as React from 'react';

/**
 * A part of the page that React 18 hydrates apart from what surrounds it: what is inside a
 * Suspense boundary is hydrated separately, in short slices (React yields every few milliseconds
 * while it hydrates a boundary), instead of in one long task that keeps a phone from answering a
 * tap (Lighthouse's total blocking time). Nothing here suspends, so the (empty) fallback never
 * shows.
 *
 * gatsby-browser and gatsby-ssr wrap every page in one, so the root's task holds only Gatsby's
 * router and the page's translations; the layout hydrates its header, content and footer as
 * parts of their own.
 */
export function HydrationPart({ children }: { children: React.ReactNode }) {
  return <React.Suspense fallback={null}>{children}</React.Suspense>;
}
