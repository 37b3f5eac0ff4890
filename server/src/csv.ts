/**
 * CSV exports (the wallet's transactions, the audit trail): RFC 4180, with formula-looking cells
 * neutralised so a spreadsheet never runs them.
 */

/**
 * A cell a spreadsheet could read as a formula (OWASP "CSV injection"): it begins with =, +, -, @,
 * a tab or a carriage return, and is not a plain number (a negative amount stays a number).
 */
export const looksLikeFormula = (text: string) => /^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text);

/** One cell: a formula-looking text gets a leading apostrophe; quotes, commas and line breaks are quoted. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (looksLikeFormula(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line, with its CRLF. */
export const csvLine = (cells: readonly (string | number | null | undefined)[]) =>
  `${cells.map(csvCell).join(',')}\r\n`;

/** A whole file: the header, then one line per row with the columns' values. */
export function toCsv<T>(columns: readonly (keyof T & string)[], rows: readonly T[]): string {
  return [columns, ...rows.map((row) => columns.map((column) => row[column] as string | number | null))]
    .map(csvLine)
    .join('');
}
