import * as React from 'react';
import { useBuySellEnabled } from '../../../app/buy-sell';

/**
 * A structured text from the translations: sections with a heading, paragraphs and bullet
 * points. Legal documents add a table of contents; each section has an anchor so support can
 * link to it (/privacy-policy/#retention).
 */
export type DocumentSection = { heading: string; paragraphs?: string[]; items?: string[]; after?: string[] };
/** Sections by anchor id, in reading order (ids stay the same in every language). */
export type SectionMap = Record<string, DocumentSection>;

/** Sections that hold only while buying and selling are switched off (the server says so at run time). */
const WHILE_BUY_SELL_DISABLED = new Set(['availability']);

export function DocumentSections({ sections: byId, tocHeading }: { sections: SectionMap; tocHeading?: string }) {
  const buySellEnabled = useBuySellEnabled();
  const sections = Object.entries(byId)
    .filter(([id]) => !WHILE_BUY_SELL_DISABLED.has(id) || buySellEnabled === false)
    .map(([id, section]) => ({ id, ...section }));
  return (
    <>
      {tocHeading ? (
        <nav className="doc-toc" aria-labelledby="doc-toc-heading">
          <h2 id="doc-toc-heading">{tocHeading}</h2>
          <ol>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.heading}</a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      {sections.map((section) => (
        <section key={section.id} id={section.id} className="doc-section" aria-labelledby={`${section.id}-heading`}>
          <h2 id={`${section.id}-heading`}>{section.heading}</h2>
          {section.paragraphs?.map((text) => (
            <p key={text}>{text}</p>
          ))}
          {section.items ? (
            <ul>
              {section.items.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          ) : null}
          {section.after?.map((text) => (
            <p key={text}>{text}</p>
          ))}
        </section>
      ))}
    </>
  );
}
