import { render, screen } from '@testing-library/react';
import { I18nextContext } from 'gatsby-plugin-react-i18next';
import { wrapPageElement as pluginWrapPageElement } from 'gatsby-plugin-react-i18next/dist/plugin/wrapPageElement';
import * as React from 'react';
import { useTranslation } from 'react-i18next';
import { wrapPageElement } from '../wrap-page-element';
import type { PluginOptions } from 'gatsby-plugin-react-i18next/dist/types';

/**
 * Every page gets its translations through the page wrapper that replaces the plugin's
 * (gatsby-node.ts): the same texts and context as the plugin's, from one i18next instance per page
 * rather than a new one each time Gatsby renders the page.
 */
const options = {
  languages: ['en', 'de'],
  defaultLanguage: 'en',
  redirect: false,
  siteUrl: 'https://muntly.example',
  i18nextOptions: { interpolation: { escapeValue: false }, keySeparator: '.', nsSeparator: ':' },
} as unknown as PluginOptions;

const pageData = (language: string, bundles: Record<string, object>) => ({
  locales: {
    edges: Object.entries(bundles).map(([ns, data]) => ({ node: { ns, language, data: JSON.stringify(data) } })),
  },
});
const pageContext = (language: string, path: string) => ({
  i18n: {
    routed: language !== 'en',
    language,
    languages: ['en', 'de'],
    originalPath: '/fees/',
    defaultLanguage: 'en',
    path,
  },
});

const seen: unknown[] = [];
function Page() {
  const { i18n } = useTranslation();
  // Keys of the made-up namespaces below, outside the site's typed ones.
  const t = (key: string) => String(i18n.t(key as never));
  const context = React.useContext(I18nextContext);
  seen.push(i18n);
  return (
    <p>
      {t('title')} · {t('common:nav.home')} · {t('footer')} · {context.language} {context.path} {context.siteUrl}
    </p>
  );
}

const wrapped = (props: { data: object; pageContext: ReturnType<typeof pageContext> }) =>
  wrapPageElement({ element: <Page />, props: props as Parameters<typeof wrapPageElement>[0]['props'] }, options)!;

describe('page wrapper (translations of a page)', () => {
  beforeEach(() => {
    seen.length = 0;
  });

  it("gives the page its texts in its language: its own namespace first, the others as fallbacks, and the plugin's context", () => {
    const data = pageData('de', {
      common: { nav: { home: 'Startseite' }, footer: 'Fußzeile' },
      fees: { title: 'Gebühren' },
    });
    render(wrapped({ data, pageContext: pageContext('de', '/de/fees/') }));
    expect(screen.getByText('Gebühren · Startseite · Fußzeile · de /de/fees/ https://muntly.example')).toBeTruthy();
  });

  it("renders a page exactly as the plugin's own wrapper does", () => {
    const props = {
      data: pageData('de', {
        common: { nav: { home: 'Startseite' }, footer: 'Fußzeile' },
        fees: { title: 'Gebühren' },
      }),
      pageContext: pageContext('de', '/de/fees/'),
    };
    const ours = render(wrapped(props)).container.innerHTML;
    const theirs = render(pluginWrapPageElement({ element: <Page />, props } as never, options) as React.ReactElement)
      .container.innerHTML;
    expect(ours).toBe(theirs);
    expect(ours).toContain('Gebühren');
  });

  it('keeps one i18next instance for a page however often Gatsby renders it, and gives another page its own', () => {
    const fees = {
      data: pageData('en', { common: { nav: { home: 'Home' }, footer: 'Footer' }, fees: { title: 'Fees' } }),
      pageContext: pageContext('en', '/fees/'),
    };
    const { rerender } = render(wrapped(fees));
    rerender(wrapped(fees));
    rerender(wrapped({ ...fees }));
    expect(screen.getByText('Fees · Home · Footer · en /fees/ https://muntly.example')).toBeTruthy();
    expect(new Set(seen).size).toBe(1);

    const rates = {
      data: pageData('en', { common: { nav: { home: 'Home' }, footer: 'Footer' }, rates: { title: 'Rates' } }),
      pageContext: pageContext('en', '/rates/'),
    };
    rerender(wrapped(rates));
    expect(screen.getByText('Rates · Home · Footer · en /rates/ https://muntly.example')).toBeTruthy();
    expect(new Set(seen).size).toBe(2);
  });

  it('refuses the language redirect it does not carry over from the plugin', () => {
    const props = { data: pageData('en', {}), pageContext: pageContext('en', '/') } as Parameters<
      typeof wrapPageElement
    >[0]['props'];
    expect(() => wrapPageElement({ element: <Page />, props }, { ...options, redirect: true })).toThrow(
      /redirect: false/,
    );
  });
});
