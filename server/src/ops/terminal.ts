/**
 * Everything the ops CLI prints goes through here. It prints customer data — order emails, names,
 * support messages, reasons — and a terminal obeys control characters in what it prints: `ESC ]8;;`
 * makes a link, `ESC [2J` clears the screen, `ESC ]0;` sets the window title, a C1 `CSI` (U+009B)
 * does what `ESC [` does, and a bidi override (U+202E) shows `moc.liame` for `email.com`. So every
 * character that is not printable — controls (C0 but the line break, DEL, C1), Unicode format
 * characters (bidi marks and overrides, zero-width ones), line and paragraph separators, private
 * use and lone surrogates — is written as its `\uXXXX` escape. In JSON output that is the same
 * escape JSON itself uses, so the JSON still parses to exactly what the server sent.
 */
const NOT_PRINTABLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Zl}\p{Zp}]/gu;

const escapeUnit = (unit: number) => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`;

/** Text made safe to print: each character above as `\uXXXX` (UTF-16 units, as JSON writes them); line breaks (`\n`, and `\r\n` as CSV ends its lines) stay. */
export function printable(text: string): string {
  return String(text).replace(NOT_PRINTABLE, (match, offset: number, whole: string) => {
    if (match === '\n') return match;
    if (match === '\r' && whole[offset + 1] === '\n') return match;
    return Array.from({ length: match.length }, (_, i) => escapeUnit(match.charCodeAt(i))).join('');
  });
}

const line = (values: unknown[]) =>
  values
    .map((value) =>
      typeof value === 'string' ? value : value instanceof Error ? (value.stack ?? value.message) : String(value),
    )
    .join(' ');

/**
 * The CLI's one output: `terminal.log` and `terminal.error` as console's (a line to stdout or
 * stderr), `terminal.write` without the line break. cli.ts names it `console`, so every line it
 * prints — those added later too — goes through `printable`.
 */
export const terminal = {
  log: (...values: unknown[]) => globalThis.console.log(printable(line(values))),
  error: (...values: unknown[]) => globalThis.console.error(printable(line(values))),
  write: (text: string) => process.stdout.write(printable(text)),
};
