import type { Language } from '../../../../domain/languages';

/**
 * The HTML part of an email, made from its text part (one source: the localized texts of
 * locales/<language>/notify.json, filled in). Written for mail clients rather than browsers: a
 * table layout, every style inline, no images, no scripts, at most 600 px wide, the brand name as
 * text in the header. Every value is escaped here, once, after the placeholders are filled, so a
 * name or label a user typed cannot add markup.
 *
 * The text's shape becomes the layout: paragraphs (separated by an empty line) stay paragraphs; a
 * paragraph whose every line reads "Label: value" becomes a list of details, label and value side
 * by side or, on a phone, the value whole below its label (a long address still wraps); a paragraph that is only a one-time code
 * is set large; the closing "Muntly" is the footer's.
 */
const BRAND = 'Muntly';
const INK = '#10201a';
const MUTED = '#4a5a53';
const BRAND_COLOUR = '#0b3d2e';
const ACCENT = '#f2b705';
const LINE = '#d5ddd9';
const FONT = 'Arial,Helvetica,sans-serif';
const MONO = "'SFMono-Regular',Consolas,'Liberation Mono',Menlo,monospace";

/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** "Label: value" (French writes a space before the colon); the label short, the value not empty. */
const DETAIL = /^([^:\n]{1,48}?)[ \u00a0\u202f]?:[ \u00a0]+(\S.*)$/;
/** A one-time code on its own, as the send-code email has it ("ABCD-EFGH-JKLM-NPQR"). */
const CODE = /^[A-Z0-9]{4}(?:-[A-Z0-9]{4})+$/;

type Block = { kind: 'paragraph'; lines: string[] } | { kind: 'details'; rows: [string, string][] } | { kind: 'code'; code: string };

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
      if (lines.length > 1 && rows.every((row) => row !== null)) return { kind: 'details', rows: rows.map((row) => [row![1]!, row![2]!]) };
      return { kind: 'paragraph', lines };
    });
}

function blockHtml(block: Block): string {
  if (block.kind === 'code') {
    // Fits a phone on one line; where it cannot, it breaks after a hyphen, never inside a group.
    return `<p style="margin:0 0 16px;padding:12px;background:#f3f6f4;border:1px solid ${LINE};border-radius:6px;font:bold 20px/1.3 ${MONO};color:${INK};">${escapeHtml(block.code)}</p>`;
  }
  if (block.kind === 'details') {
    // Each row a label and a value side by side where they fit, the value below its label where
    // they do not (a phone): inline blocks wrap without media queries, which not every client has.
    const rows = block.rows
      .map(
        ([label, value]) =>
          `<div style="padding:6px 0;border-bottom:1px solid ${LINE};">` +
          `<div style="display:inline-block;vertical-align:top;width:180px;max-width:100%;padding-right:12px;box-sizing:border-box;font:14px/1.4 ${FONT};color:${MUTED};">${escapeHtml(label)}</div>` +
          `<div style="display:inline-block;vertical-align:top;max-width:100%;font:bold 15px/1.4 ${FONT};color:${INK};overflow-wrap:anywhere;word-break:break-word;">${escapeHtml(value)}</div>` +
          `</div>`,
      )
      .join('');
    return `<div style="margin:0 0 16px;border-top:1px solid ${LINE};">${rows}</div>`;
  }
  return `<p style="margin:0 0 16px;font:16px/1.5 ${FONT};color:${INK};overflow-wrap:anywhere;">${block.lines.map(escapeHtml).join('<br>')}</p>`;
}

/** The whole HTML document of an email with this subject and text, in this language. */
export function emailHtml(language: Language, subject: string, text: string): string {
  const blocks = blocksOf(text);
  // The sign-off is the brand's, already in the header.
  const last = blocks[blocks.length - 1];
  if (last?.kind === 'paragraph' && last.lines.length === 1 && last.lines[0] === BRAND) blocks.pop();
  const content = blocks.map(blockHtml).join('');
  return (
    `<!DOCTYPE html><html lang="${escapeHtml(language)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light only">` +
    `<title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:0;background:#eef2f0;-webkit-text-size-adjust:100%;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#eef2f0;"><tr><td align="center" style="padding:24px 8px;">` +
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background:#ffffff;border:1px solid ${LINE};border-radius:8px;border-collapse:separate;">` +
    `<tr><td style="padding:18px 24px;background:${BRAND_COLOUR};border-radius:8px 8px 0 0;border-bottom:4px solid ${ACCENT};font:bold 24px/1.2 ${FONT};color:#ffffff;letter-spacing:0.5px;">${BRAND}</td></tr>` +
    `<tr><td style="padding:24px 24px 8px;">` +
    `<h1 style="margin:0 0 16px;font:bold 20px/1.3 ${FONT};color:${INK};overflow-wrap:anywhere;">${escapeHtml(subject)}</h1>` +
    content +
    `</td></tr>` +
    `<tr><td style="padding:16px 24px;border-top:1px solid ${LINE};font:13px/1.4 ${FONT};color:${MUTED};">${BRAND}</td></tr>` +
    `</table></td></tr></table></body></html>`
  );
}
