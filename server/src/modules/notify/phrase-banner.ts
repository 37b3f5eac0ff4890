import { escapeHtml } from './email-html';

/**
 * The anti-phishing phrase at the very top of an email (issue 19): its own box above the card in
 * the HTML part, before anything else the reader sees, so that a mail without it is recognizably
 * not Muntly's. Kept apart from the layout in email-html.ts, which it only inserts into: inside the
 * wrapper that carries the language (the first element of <body>), after the inbox's preview line.
 * The same email-safe markup as the rest: tables, paragraphs, inline longhand styles.
 *
 * `line` is the localized sentence with the phrase in it, `phrase` the phrase (set large and bold
 * on its own line), `note` the line below it.
 */
export function withPhraseBanner(html: string, line: string, phrase: string, note: string): string {
  const at = line.lastIndexOf(phrase);
  const before = (at >= 0 ? line.slice(0, at) : line).trim();
  const after = at >= 0 ? line.slice(at + phrase.length).trim() : '';
  const sans = 'font-family:Arial,Helvetica,sans-serif;';
  const text =
    `<p style="margin:0;${sans}font-size:14px;line-height:20px;font-weight:normal;color:#10201a;">${escapeHtml(before)}</p>` +
    `<p style="margin:4px 0;${sans}font-size:18px;line-height:24px;font-weight:bold;color:#10201a;overflow-wrap:anywhere;">${escapeHtml(phrase)}${after ? ` ${escapeHtml(after)}` : ''}</p>` +
    `<p style="margin:0;${sans}font-size:13px;line-height:18px;font-weight:normal;color:#4a5a53;">${escapeHtml(note)}</p>`;
  const banner =
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#eef2f0;"><tr><td align="center" style="padding:16px 8px 0;">` +
    `<!--[if mso]><table role="presentation" width="600" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;border-collapse:separate;"><tr>` +
    `<td style="padding:10px 16px;background-color:#fff8db;border:2px solid #f2b705;border-radius:8px;">${text}</td>` +
    `</tr></table>` +
    `<!--[if mso]></td></tr></table><![endif]-->` +
    `</td></tr></table>`;
  // After the preview line (a hidden div, the wrapper's first child), before the email's table.
  const preview = /<div aria-hidden="true"[^>]*>[^<]*<\/div>/.exec(html);
  if (preview)
    return html.slice(0, preview.index + preview[0].length) + banner + html.slice(preview.index + preview[0].length);
  return html.replace(/<body[^>]*>/i, (open) => `${open}${banner}`);
}
