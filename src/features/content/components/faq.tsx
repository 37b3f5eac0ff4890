import * as React from 'react';
import { WhenBuySellDisabled } from '../../../app/buy-sell';

/** One question; `whenBuySellDisabled` is a sentence the answer carries only while buying and selling are off. */
export type FaqItem = { q: string; a: string; whenBuySellDisabled?: string };

/** Questions and answers, each question a heading so that the page outline lists them. */
export function Faq({ items, level = 3 }: { items: FaqItem[]; level?: 2 | 3 }) {
  const Heading = level === 2 ? 'h2' : 'h3';
  return (
    <div className="faq">
      {items.map((item) => (
        <div key={item.q} className="faq-item">
          <Heading>{item.q}</Heading>
          <p>
            {item.a}
            {item.whenBuySellDisabled ? <WhenBuySellDisabled> {item.whenBuySellDisabled}</WhenBuySellDisabled> : null}
          </p>
        </div>
      ))}
    </div>
  );
}
