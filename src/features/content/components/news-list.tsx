import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { useBuySellEnabled } from '../../../app/buy-sell';
import { formatDate } from '../../../i18n/format';
import type { Language } from '#domain/languages';

/** An article from content/news/<language>/<slug>.md, as the news page queries it. */
export type NewsArticle = { html: string; frontmatter: { slug: string; title: string; date: string; summary: string } };

/**
 * The news page: the list of articles (newest first) linking to each article below it. The
 * article HTML is rendered from our own Markdown at build time (no scripts, no outside input).
 */
/** Articles that hold only while buying and selling are switched off (the server says so at run time). */
const WHILE_BUY_SELL_DISABLED = new Set(['buying-and-selling-paused']);

export function NewsList({ articles: all, language }: { articles: NewsArticle[]; language: Language }) {
  const { t } = useTranslation('info');
  const buySellEnabled = useBuySellEnabled();
  const articles = all.filter(
    ({ frontmatter }) => !WHILE_BUY_SELL_DISABLED.has(frontmatter.slug) || buySellEnabled === false,
  );
  const date = (iso: string) => formatDate(new Date(`${iso.slice(0, 10)}T12:00:00Z`), language);
  return (
    <>
      <nav aria-labelledby="news-index-heading">
        <h2 id="news-index-heading">{t('news.indexHeading', { count: articles.length })}</h2>
        <ul className="news-list">
          {articles.map(({ frontmatter: article }) => (
            <li key={article.slug}>
              <a href={`#${article.slug}`}>{article.title}</a> <span className="news-date">({date(article.date)})</span>
              <br />
              {article.summary}
            </li>
          ))}
        </ul>
      </nav>
      {articles.map(({ html, frontmatter: article }) => (
        <article
          key={article.slug}
          id={article.slug}
          className="news-article"
          aria-labelledby={`${article.slug}-title`}
        >
          <h2 id={`${article.slug}-title`}>{article.title}</h2>
          <p>
            <time dateTime={article.date.slice(0, 10)}>{date(article.date)}</time>
          </p>
          <div dangerouslySetInnerHTML={{ __html: html }} />
        </article>
      ))}
    </>
  );
}
