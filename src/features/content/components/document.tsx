import * as React from 'react';

/**
 * A structured text from the translations: sections with a heading, paragraphs and bullet
 * points. Legal documents add a table of contents; each section has an anchor so support can
 * link to it (/privacy-policy/#retention).
 */
export type DocumentSection = { heading: string; paragraphs?: string[]; items?: string[]; after?: string[] };
/** Sections by anchor id, in reading order (ids stay the same in every language). */
export type SectionMap = Record<string, DocumentSection>;

export function DocumentSections({ sections: byId, tocHeading }: { sections: SectionMap; tocHeading?: string }) {
  const sections = Object.entries(byId).map(([id, section]) => ({ id, ...section }));
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
