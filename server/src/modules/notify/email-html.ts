import type { Language } from '#domain/languages';

/**
 * The HTML part of an email, made from its text part (one source: the localized texts of
 * locales/<language>/notify.json, filled in). Written for mail clients rather than browsers: a
 * table layout, every style inline and in longhand properties (Outlook ignores some shorthands),
 * no stylesheet, no images, no scripts, at most 600 px wide (Outlook on Windows, which ignores
 * max-width, gets a fixed 600 px table in a conditional comment), the brand name as text in the
 * header. Every value is escaped here, once, after the placeholders are filled, so a name or label
 * a user typed cannot add markup.
 *
 * The text's shape becomes the layout: paragraphs (separated by an empty line) stay paragraphs; a
 * paragraph whose every line reads "Label: value" becomes a list of details, label and value side
 * by side or, on a phone, the value whole below its label (a long address still wraps); a paragraph that is only a one-time code
 * is set large; the closing "Muntly" is the footer's, which names the operator (notify/service.ts).
 */
const BRAND = 'Muntly';
const INK = '#10201a';
const MUTED = '#4a5a53';
const BRAND_COLOUR = '#0b3d2e';
const ACCENT = '#f2b705';
const LINE = '#d5ddd9';
const PAGE = '#eef2f0';
const CODE_BG = '#f3f6f4';
const SANS = 'Arial,Helvetica,sans-serif';
const MONO = "'SFMono-Regular',Consolas,'Liberation Mono',Menlo,monospace";

/** A font in longhand properties, the line height in pixels (what every client reads alike). */
const font = (size: number, lineHeight: number, weight: 'normal' | 'bold' = 'normal', family = SANS) =>
  `font-family:${family};font-size:${size}px;line-height:${lineHeight}px;font-weight:${weight};`;

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "Label: value" (French writes a space before the colon); the label short, the value not empty. */
const DETAIL = /^([^:\n]{1,48}?)[ \u00a0\u202f]?:[ \u00a0]+(\S.*)$/;
/** A one-time code on its own, as the send-code email has it ("ABCD-EFGH-JKLM-NPQR"). */
const CODE = /^[A-Z0-9]{4}(?:-[A-Z0-9]{4})+$/;

type Block =
  | { kind: 'paragraph'; lines: string[] }
  | { kind: 'details'; rows: [string, string][] }
  | { kind: 'code'; code: string };

/** The foot of an email: who operates Muntly, line by line, and in local mode the notice that these are sample values. */
export type EmailFooter = { sampleNotice?: string; lines: string[] };

/** The text's paragraphs, each told what it is. */
export function blocksOf(text: string): Block[] {
  return text
    .replace(/\r\n/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.split('\n').map((line) => line.trim()))
    .map((lines) => lines.filter((line) => line !== ''))
    .filter((lines) => lines.length > 0)
    .map((lines): Block => {
      if (lines.length === 1 && CODE.test(lines[0]!)) return { kind: 'code', code: lines[0]! };
      const rows = lines.map((line) => DETAIL.exec(line));
      if (lines.length > 1 && rows.every((row) => row !== null))
        return { kind: 'details', rows: rows.map((row) => [row![1]!, row![2]!]) };
      return { kind: 'paragraph', lines };
    });
}

function blockHtml(block: Block): string {
  if (block.kind === 'code') {
    // Fits a phone on one line; where it cannot, it breaks after a hyphen, never inside a group.
    return `<p style="margin:0 0 16px;padding:12px;background-color:${CODE_BG};border:1px solid ${LINE};border-radius:6px;${font(20, 26, 'bold', MONO)}color:${INK};">${escapeHtml(block.code)}</p>`;
  }
  if (block.kind === 'details') {
    // Each row a label and a value side by side where they fit, the value below its label where
    // they do not (a phone): inline blocks wrap without media queries, which not every client has.
    const rows = block.rows
      .map(
        ([label, value]) =>
          `<div style="padding:6px 0;border-bottom:1px solid ${LINE};">` +
          `<div style="display:inline-block;vertical-align:top;width:180px;max-width:100%;padding-right:12px;box-sizing:border-box;${font(14, 20)}color:${MUTED};">${escapeHtml(label)}</div>` +
          `<div style="display:inline-block;vertical-align:top;max-width:100%;${font(15, 21, 'bold')}color:${INK};overflow-wrap:anywhere;word-break:break-word;">${escapeHtml(value)}</div>` +
          `</div>`,
      )
      .join('');
    return `<div style="margin:0 0 16px;border-top:1px solid ${LINE};">${rows}</div>`;
  }
  return `<p style="margin:0 0 16px;${font(16, 24)}color:${INK};overflow-wrap:anywhere;">${block.lines.map(escapeHtml).join('<br>')}</p>`;
}

/** What a block says, on one line: the inbox's preview of the email (its preheader). */
function plainOf(block: Block): string {
  if (block.kind === 'code') return block.code;
  if (block.kind === 'details') return block.rows.map(([label, value]) => `${label}: ${value}`).join(' · ');
  return block.lines.join(' ');
}

function footerHtml(footer: EmailFooter): string {
  const notice = footer.sampleNotice
    ? `<p style="margin:0 0 6px;${font(13, 18, 'bold')}color:${INK};">${escapeHtml(footer.sampleNotice)}</p>`
    : '';
  const lines = footer.lines.map(escapeHtml).join('<br>');
  return `${notice}<p style="margin:0;${font(13, 18)}color:${MUTED};overflow-wrap:anywhere;">${lines}</p>`;
}

/** The whole HTML document of an email with this subject and text, in this language, with the operator at its foot. */
export function emailHtml(language: Language, subject: string, text: string, footer: EmailFooter): string {
  const blocks = blocksOf(text);
  // The sign-off is the brand's, already in the header.
  const last = blocks[blocks.length - 1];
  if (last?.kind === 'paragraph' && last.lines.length === 1 && last.lines[0] === BRAND) blocks.pop();
  const content = blocks.map(blockHtml).join('');
  const preheader = blocks[0] ? plainOf(blocks[0]) : '';
  // All six languages are written left to right. Some webmail clients drop the <html> element's
  // attributes, so the language and direction are repeated on the element that wraps the email.
  const languageAttributes = `lang="${escapeHtml(language)}" dir="ltr"`;
  return (
    `<!DOCTYPE html><html ${languageAttributes}><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="x-apple-disable-message-reformatting">` +
    `<meta name="color-scheme" content="light only"><meta name="supported-color-schemes" content="light only">` +
    `<title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background-color:${PAGE};-webkit-text-size-adjust:100%;">` +
    `<div ${languageAttributes} role="article" aria-roledescription="email" aria-label="${escapeHtml(subject)}" style="background-color:${PAGE};">` +
    // What the inbox shows after the subject, instead of the header's brand name.
    `<div aria-hidden="true" style="display:none;max-height:0;overflow:hidden;mso-hide:all;">${escapeHtml(preheader)}</div>` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${PAGE};"><tr><td align="center" style="padding:24px 8px;">` +
    `<!--[if mso]><table role="presentation" width="600" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;border:1px solid ${LINE};border-radius:8px;border-collapse:separate;">` +
    `<tr><td style="padding:18px 24px;background-color:${BRAND_COLOUR};border-radius:8px 8px 0 0;border-bottom:4px solid ${ACCENT};${font(24, 29, 'bold')}color:#ffffff;letter-spacing:0.5px;">${BRAND}</td></tr>` +
    `<tr><td style="padding:24px 24px 8px;">` +
    `<h1 style="margin:0 0 16px;${font(20, 26, 'bold')}color:${INK};overflow-wrap:anywhere;">${escapeHtml(subject)}</h1>` +
    content +
    `</td></tr>` +
    `<tr><td style="padding:16px 24px;border-top:1px solid ${LINE};">${footerHtml(footer)}</td></tr>` +
    `</table>` +
    `<!--[if mso]></td></tr></table><![endif]-->` +
    `</td></tr></table></div></body></html>`
  );
}
