import fs from 'node:fs';
import path from 'node:path';
import { escapeHtml } from '../notify/email-html';
import { fillTemplate, phrase } from '../notify/service';
import type { ErrorCode } from '#domain/errors';
import type { Language } from '#domain/languages';
import type { BookEntry } from './repository';

/**
 * The pages a security email's link opens, without a login and without the site's scripts: a
 * question and one button (a GET never changes anything, so a mail scanner that fetches every
 * link freezes nothing), then the outcome. Texts: locales/<lng>/notify.json `securityPages`,
 * refusals from errors.json.
 */
const localesDir = path.resolve(__dirname, '../../../../locales');
const errorTexts = new Map<Language, Record<string, string>>();

function errorText(language: Language, code: ErrorCode): string {
  let texts = errorTexts.get(language);
  if (!texts)
    errorTexts.set(
      language,
      (texts = JSON.parse(fs.readFileSync(path.join(localesDir, language, 'errors.json'), 'utf8')) as Record<
        string,
        string
      >),
    );
  return texts[code] ?? code;
}

const text = (language: Language, key: Parameters<typeof phrase<'securityPages'>>[2]) =>
  phrase(language, 'securityPages', key);

function page(language: Language, title: string, body: string): string {
  return `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)} | Muntly</title><style>
body{font:1rem/1.5 system-ui,sans-serif;color:#10201a;background:#eef2f0;margin:0;display:flex;justify-content:center;padding:2rem 1rem}
main{background:#fff;border:1px solid #d5ddd9;border-radius:.75rem;padding:1.5rem 2rem;max-width:32rem;width:100%;box-sizing:border-box}
.brand{font-weight:700;color:#0b3d2e;margin:0 0 1rem}h1{font-size:1.4rem;margin:0 0 1rem}code{display:block;overflow-wrap:anywhere;background:#f3f6f4;border:1px solid #d5ddd9;border-radius:.4rem;padding:.5rem;margin:0 0 1rem}
button{width:100%;font:inherit;font-weight:600;padding:.75rem;border:0;border-radius:.5rem;background:#a1121f;color:#fff;cursor:pointer;margin-top:.5rem}
button:focus-visible{outline:3px solid #f2b705;outline-offset:2px}form+form{margin-top:1rem}</style></head>
<body><main><p class="brand">Muntly</p>${body}</main></body></html>`;
}

const form = (action: string, token: string, label: string) =>
  `<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="t" value="${escapeHtml(token)}"><button type="submit">${escapeHtml(label)}</button></form>`;

export const freezeQuestionPage = (language: Language, action: string, token: string) =>
  page(
    language,
    text(language, 'freezeTitle'),
    `<h1>${escapeHtml(text(language, 'freezeTitle'))}</h1><p>${escapeHtml(text(language, 'freezeText'))}</p>${form(action, token, text(language, 'freezeButton'))}`,
  );

export const frozenPage = (language: Language) =>
  page(
    language,
    text(language, 'frozenTitle'),
    `<h1>${escapeHtml(text(language, 'frozenTitle'))}</h1><p>${escapeHtml(text(language, 'frozenText'))}</p>`,
  );

export const cancelQuestionPage = (language: Language, action: string, token: string, entry: BookEntry) =>
  page(
    language,
    text(language, 'cancelTitle'),
    `<h1>${escapeHtml(text(language, 'cancelTitle'))}</h1><p>${escapeHtml(fillTemplate(text(language, 'cancelText'), { currency: entry.currency }))}</p><code>${escapeHtml(entry.address)}</code>${form(action, token, text(language, 'cancelButton'))}`,
  );

/** After a cancel: the outcome, and a freeze button (a fresh freeze link: the cancel link proved the mailbox as much). */
export const cancelledPage = (language: Language, freezeAction: string, freezeToken: string) =>
  page(
    language,
    text(language, 'cancelledTitle'),
    `<h1>${escapeHtml(text(language, 'cancelledTitle'))}</h1><p>${escapeHtml(text(language, 'cancelledText'))}</p>${form(freezeAction, freezeToken, text(language, 'cancelledFreeze'))}`,
  );

export const failedPage = (language: Language, code: ErrorCode) =>
  page(
    language,
    text(language, 'failedTitle'),
    `<h1>${escapeHtml(text(language, 'failedTitle'))}</h1><p role="alert">${escapeHtml(errorText(language, code))}</p>`,
  );
