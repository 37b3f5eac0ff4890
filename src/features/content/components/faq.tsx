import * as React from 'react';

/** Questions and answers, each question a heading so that the page outline lists them. */
export function Faq({ items, level = 3 }: { items: { q: string; a: string }[]; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="faq">
      {items.map((item) => (
        <div key={item.q} className="faq-item">
          <Heading>{item.q}</Heading>
          <p>{item.a}</p>
        </div>
      ))}
    </div>
  );
}
