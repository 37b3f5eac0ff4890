import * as React from 'react';
import type { HeadFC } from 'gatsby';

/** The bare Gatsby page bench:site measures the home page against: a heading and a paragraph. */
export default function BarePage() {
  return (
    <main>
      <h1>A bare Gatsby page</h1>
      <p>The reference for bench:site: what Gatsby itself costs before the site adds anything.</p>
    </main>
  );
}

export const Head: HeadFC = () => (
  <>
    <html lang="en" />
    <title>A bare Gatsby page</title>
    <meta name="description" content="The reference page of bench:site." />
  </>
);
