import fs from 'node:fs';
import path from 'node:path';
import { isLanguage, type Language } from '#domain/languages';
import { escapeHtml } from './html';
import type http from 'node:http';

/**
 * The local identity provider's own pages: its login and sign-up form in the language the site
 * asks for, with the texts of locales/<lng>/auth.json (idp.ts runs the provider behind them).
 */
export type Texts = Record<string, string>;
const localesDir = path.resolve(__dirname, '../../../locales');
const textCache = new Map<Language, Texts>();
export function texts(language: Language): Texts {
  let cached = textCache.get(language);
  if (!cached) {
    cached = JSON.parse(fs.readFileSync(path.join(localesDir, language, 'auth.json'), 'utf8')).idp as Texts;
    textCache.set(language, cached);
  }
  return cached;
}

/**
 * The pages' stylesheet: the site's design tokens (light and dark, src/styles/tokens.css) and the
 * rules of idp.css that use them, read once and inlined (the provider serves no static files).
 */
let stylesheet: string | undefined;
function styles(): string {
  stylesheet ??= [path.resolve(__dirname, '../../../src/styles/tokens.css'), path.join(__dirname, 'idp.css')]
    .map((file) => fs.readFileSync(file, 'utf8'))
    .join('\n');
  return stylesheet;
}

export function page(language: Language, title: string, body: string): string {
  return `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark"><title>${escapeHtml(title)}</title><style>${styles()}</style></head><body><main><p class="brand">Muntly</p>${body}</main></body></html>`;
}

export function loginForm(
  language: Language,
  uid: string,
  signup: boolean,
  error?: string,
  email = '',
  notice?: string,
): string {
  const t = texts(language);
  const title = signup ? t.signupTitle! : t.loginTitle!;
  const errorHtml =
    (notice ? `<p role="status">${escapeHtml(notice)}</p>` : '') +
    (error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : '');
  const described = error ? ' aria-describedby="form-error"' : '';
  const nameField = signup
    ? `<label for="name">${escapeHtml(t.name!)}</label><input id="name" name="name" autocomplete="name" required maxlength="100">`
    : '';
  const switchLink = signup
    ? `<p><a href="/interaction/${uid}">${escapeHtml(t.haveAccount!)}</a></p>`
    : `<p><a href="/interaction/${uid}?signup=1">${escapeHtml(t.noAccount!)}</a></p>`;
  return page(
    language,
    title,
    `<h1>${escapeHtml(title)}</h1>${errorHtml}
<form method="post" action="/interaction/${uid}/${signup ? 'signup' : 'login'}" novalidate${described}>
${nameField}
<label for="email">${escapeHtml(t.email!)}</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}">
<label for="password">${escapeHtml(t.password!)}</label><input id="password" name="password" type="password" autocomplete="${signup ? 'new-password' : 'current-password'}" required minlength="${signup ? 8 : 1}">
<button type="submit">${escapeHtml(signup ? t.signupButton! : t.loginButton!)}</button></form>${switchLink}`,
  );
}

/** The second step of a login with two-step login on: the code from the authenticator app. */
export function otpForm(language: Language, uid: string, error?: string): string {
  const t = texts(language);
  const errorHtml = error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : '';
  const described = error ? ' aria-describedby="form-error"' : '';
  return page(
    language,
    t.otpTitle!,
    `<h1>${escapeHtml(t.otpTitle!)}</h1>${errorHtml}
<form method="post" action="/interaction/${uid}/otp" novalidate${described}>
<label for="otp">${escapeHtml(t.otpLabel!)}</label><input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required autofocus>
<button type="submit">${escapeHtml(t.otpButton!)}</button></form>`,
  );
}

/** Two-step login, step 1: who (email and password), in the language the site asked for. */
export function mfaLoginForm(language: Language, error?: string, email = ''): string {
  const t = texts(language);
  const errorHtml = error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : '';
  return page(
    language,
    t.mfaTitle!,
    `<h1>${escapeHtml(t.mfaTitle!)}</h1><p>${escapeHtml(t.mfaIntro!)}</p>${errorHtml}
<form method="post" action="/mfa?ui_locales=${language}" novalidate>
<label for="email">${escapeHtml(t.email!)}</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}">
<label for="password">${escapeHtml(t.password!)}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${escapeHtml(t.mfaStart!)}</button></form>`,
  );
}

/** Two-step login, step 2: the code emailed to the account's address (the password alone changes nothing). */
export function mfaEmailForm(language: Language, challenge: string, error?: string): string {
  const t = texts(language);
  const errorHtml = error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : '';
  return page(
    language,
    t.mfaTitle!,
    `<h1>${escapeHtml(t.mfaTitle!)}</h1><p>${escapeHtml(t.mfaEmailSent!)}</p>${errorHtml}
<form method="post" action="/mfa/email?ui_locales=${language}" novalidate>
<input type="hidden" name="challenge" value="${escapeHtml(challenge)}">
<label for="code">${escapeHtml(t.mfaEmailCode!)}</label><input id="code" name="code" autocomplete="one-time-code" autocapitalize="characters" spellcheck="false" maxlength="40" required autofocus>
<button type="submit">${escapeHtml(t.mfaStart!)}</button></form>`,
  );
}

/** Two-step login, step 3: the QR code (and the key, for typing in), then the first code. */
export function mfaScanForm(
  language: Language,
  enrolment: string,
  uri: string,
  qr: string,
  secret: string,
  error?: string,
): string {
  const t = texts(language);
  const errorHtml = error ? `<p class="error" role="alert" id="form-error">${escapeHtml(error)}</p>` : '';
  const key = secret.match(/.{1,4}/g)!.join(' ');
  return page(
    language,
    t.mfaTitle!,
    `<h1>${escapeHtml(t.mfaTitle!)}</h1><p>${escapeHtml(t.mfaScan!)}</p>
<p><img src="${qr}" width="246" height="246" alt="QR (${escapeHtml(t.mfaKey!)})"></p>
<p>${escapeHtml(t.mfaKey!)}: <code id="totp-key">${escapeHtml(key)}</code></p><p><a href="${escapeHtml(uri)}">${escapeHtml(t.mfaOpen!)}</a></p>${errorHtml}
<form method="post" action="/mfa/confirm?ui_locales=${language}" novalidate>
<input type="hidden" name="enrolment" value="${escapeHtml(enrolment)}">
<label for="otp">${escapeHtml(t.otpLabel!)}</label><input id="otp" name="otp" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">${escapeHtml(t.mfaConfirm!)}</button></form>`,
  );
}

/** A last word on two-step login, and the way back to the site. */
export function mfaMessage(language: Language, message: string, backTo: string): string {
  const t = texts(language);
  return page(
    language,
    t.mfaTitle!,
    `<h1>${escapeHtml(t.mfaTitle!)}</h1><p role="status">${escapeHtml(message)}</p><p><a href="${escapeHtml(backTo)}">${escapeHtml(t.back!)}</a></p>`,
  );
}

export function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) req.destroy(new Error('form too large'));
    });
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

export function languageOf(uiLocales: unknown): Language {
  const first =
    typeof uiLocales === 'string'
      ? uiLocales
          .split(' ')
          .map((l) => l.slice(0, 2))
          .find(isLanguage)
      : undefined;
  return first ?? 'en';
}
