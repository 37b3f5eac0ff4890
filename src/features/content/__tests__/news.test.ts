import fs from 'node:fs';
import path from 'node:path';
import { languages } from '#domain/languages';

/** Every news article exists in every language, with its metadata, and fits the page's outline. */
const newsDir = path.join(__dirname, '../../../../content/news');

function read(language: string, file: string) {
  const text = fs.readFileSync(path.join(newsDir, language, file), 'utf8');
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${language}/${file} has no front matter`);
  const meta = Object.fromEntries(
    match[1]!.split('\n').map((line) => {
      const [key, ...rest] = line.split(':');
      return [key!.trim(), rest.join(':').trim().replace(/^"|"$/g, '')];
    }),
  );
  return { meta, body: match[2]! };
}

const articles = fs.readdirSync(path.join(newsDir, 'en')).filter((f) => f.endsWith('.md'));

describe('news articles', () => {
  it('has at least three articles', () => {
    expect(articles.length).toBeGreaterThanOrEqual(3);
  });

  it.each(languages)('exist in %s with the same slugs, dates and complete metadata', (language) => {
    expect(fs.readdirSync(path.join(newsDir, language)).sort()).toEqual([...articles].sort());
    for (const file of articles) {
      const { meta, body } = read(language, file);
      const english = read('en', file).meta;
      expect({ file, language: meta.language, slug: meta.slug, date: meta.date }).toEqual({
        file,
        language,
        slug: file.replace(/\.md$/, ''),
        date: english.date,
      });
      expect(meta.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(meta.title!.length).toBeGreaterThan(10);
      expect(meta.summary!.length).toBeGreaterThan(40);
      expect(body.split(/\n\s*\n/).length).toBeGreaterThanOrEqual(4);
      if (language !== 'en') expect({ file, title: meta.title }).not.toEqual({ file, title: english.title });
      // The page gives each article an h2 title: sections inside are h3, never h1 or h2.
      expect(body).not.toMatch(/^#{1,2} /m);
    }
  });
});
