import { defaultLanguage, languages, localizePath, type Language } from '../../domain/languages';

/**
 * The offline page: what a visitor sees when they open a page the service worker has not kept
 * while the network is off (docs/decisions/0012: an offline fallback page). One static HTML file per
 * language, written by the build (gatsby-node.ts), kept by the service worker when it installs
 * and served for any navigation the network cannot answer. Static and self-contained (inline
 * styles, no React) so it shows even when none of the site's chunks are in the cache.
 */
export const OFFLINE_DIR = 'offline-fallback';

export function offlinePagePath(language: Language): string {
  return `/${OFFLINE_DIR}/${language}.html`;
}

export type OfflineTexts = { heading: string; text: string; retry: string; auto: string; home: string };

const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

// The site's colours (src/styles/global.css), light and dark.
const STYLE = `
:root{--ink:#10201a;--muted:#4a5a53;--paper:#fff;--brand:#0b3d2e;--line:#d5ddd9;--focus:#1a5fd0;color-scheme:light dark}
@media (prefers-color-scheme:dark){:root{--ink:#e6efea;--muted:#b4c4bc;--paper:#0f1714;--brand:#8fd3b4;--line:#2f3d37;--focus:#8ab4ff}}
*{box-sizing:border-box}
body{margin:0;font:1rem/1.6 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:var(--ink);background:var(--paper);overflow-wrap:break-word}
header{border-bottom:1px solid var(--line)}
.wrap{max-width:40rem;margin:0 auto;padding:0 1rem}
.brand{display:inline-block;padding:.75rem 0;font-weight:700;font-size:1.25rem;color:var(--brand);text-decoration:none}
main.wrap{padding-top:2rem;padding-bottom:3rem}
h1{font-size:clamp(1.5rem,1rem + 2.5vw,2.25rem);line-height:1.25;margin:0 0 1rem;hyphens:auto;overflow-wrap:anywhere}
.icon{display:block;width:3rem;height:3rem;margin-bottom:1rem;color:var(--muted)}
p{margin:0 0 1rem}
.muted{color:var(--muted)}
.actions{display:flex;flex-wrap:wrap;gap:.75rem 1.5rem;align-items:center;margin-top:1.5rem}
.button{display:inline-block;min-height:44px;padding:.6rem 1.25rem;border-radius:.5rem;background:var(--brand);color:var(--paper);font-weight:600;text-decoration:none}
a{color:var(--brand);text-underline-offset:.15em}
a:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
`.trim();

/** Reloads by itself when the connection comes back (the server allows the script by its hash). */
const SCRIPT = `addEventListener('online',function(){location.reload()})`;

export function offlinePageHtml(language: Language, t: OfflineTexts): string {
  const home = localizePath('/', language);
  return `<!DOCTYPE html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escape(t.heading)} | Muntly</title>
<style>${STYLE}</style>
</head>
<body>
<header><div class="wrap"><a class="brand" href="${home}">Muntly</a></div></header>
<main class="wrap" id="offline" data-language="${language}">
<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" aria-hidden="true"><path d="M2 8.8a15 15 0 0 1 4.2-2.6M10.7 5.1A15 15 0 0 1 22 8.8M5 12.6a10 10 0 0 1 5.2-2.7M16.8 11.2A10 10 0 0 1 19 12.6M8.5 16.3a5 5 0 0 1 7 0M12 20h.01M3 3l18 18"/></svg>
<h1>${escape(t.heading)}</h1>
<p>${escape(t.text)}</p>
<p class="muted">${escape(t.auto)}</p>
<div class="actions">
<a class="button" href="">${escape(t.retry)}</a>
<a href="${home}">${escape(t.home)}</a>
</div>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * Appended to gatsby-plugin-offline's service worker (its `appendScript`). The plugin's
 * navigation route answers from the network unless the page's resources are all cached, and
 * offline that fetch fails: workbox then asks the catch handler, which answers a navigation with
 * the offline page in the visitor's language — the address's prefix (/de/…), else the language
 * of the page they last saw (posted by gatsby-browser.tsx), else the browser's, else English.
 */
export function offlineServiceWorkerScript(): string {
  const pages = Object.fromEntries(languages.map((language) => [language, offlinePagePath(language)]));
  return `
/* Muntly: the localized offline page (src/i18n/offline-page.ts) */
const MUNTLY_OFFLINE_CACHE = 'muntly-offline';
const MUNTLY_OFFLINE_PAGES = ${JSON.stringify(pages)};
const MUNTLY_DEFAULT_LANGUAGE = ${JSON.stringify(defaultLanguage)};
const muntlyKnown = (language) => Object.prototype.hasOwnProperty.call(MUNTLY_OFFLINE_PAGES, language);

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches.open(MUNTLY_OFFLINE_CACHE).then((cache) =>
      cache.addAll(Object.values(MUNTLY_OFFLINE_PAGES).map((url) => new Request(url, { cache: 'reload' })))
    )
  );
});

self.addEventListener('message', (event) => {
  const language = event.data && event.data.muntlyLanguage;
  if (muntlyKnown(language)) event.waitUntil(idbKeyval.set('muntly:language', language));
});

async function muntlyOfflineLanguage(request) {
  const prefix = new URL(request.url).pathname.split('/')[1];
  if (muntlyKnown(prefix) && prefix !== MUNTLY_DEFAULT_LANGUAGE) return prefix;
  const stored = await idbKeyval.get('muntly:language').catch(() => undefined);
  if (muntlyKnown(stored)) return stored;
  for (const range of (request.headers.get('accept-language') || '').split(',')) {
    const language = range.trim().slice(0, 2).toLowerCase();
    if (muntlyKnown(language)) return language;
  }
  return MUNTLY_DEFAULT_LANGUAGE;
}

workbox.routing.setCatchHandler(async ({ event }) => {
  if (event && event.request && event.request.mode === 'navigate') {
    const language = await muntlyOfflineLanguage(event.request);
    const page = await caches.match(MUNTLY_OFFLINE_PAGES[language], { cacheName: MUNTLY_OFFLINE_CACHE });
    if (page) return page;
  }
  return Response.error();
});
`;
}
