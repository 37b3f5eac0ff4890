import iconv from 'iconv-lite';
import { DomainError } from '#domain/errors';

/**
 * A bank file's bytes as text, in the encoding it was written in. Banks send UTF-8 (with or
 * without a byte order mark), ISO-8859-1 or ISO-8859-15 (German banks over FinTS/EBICS),
 * windows-1252, and now and then UTF-16 with a byte order mark; read as UTF-8, an ISO-8859-1
 * "Jürgen Müller" becomes "J�rgen M�ller", and that name goes into a refund's pain.001 (the
 * payee's bank checks it against the IBAN).
 *
 * Three things can say which encoding it is:
 * 1. a byte order mark (or, without one, UTF-16's `<?` pattern that XML 1.0 Appendix F names):
 *    the bytes themselves, never wrong about the byte order;
 * 2. the XML declaration's `encoding`: what the bank that wrote the file said about it;
 * 3. the HTTP Content-Type's charset: what the uploader claims (a browser or curl; often a habit
 *    such as `charset=utf-8` typed for every upload, not knowledge of this file).
 * RFC 7303 lets the charset win over the declaration; XML 1.0 lets the declaration win when
 * there is no transport information. Neither guess is safe for money: when the declaration and
 * the charset (or a byte order mark) name encodings that read these bytes differently, the file is
 * refused (`statement_encoding`), naming both, and the operator uploads it without the wrong
 * label. When they name different labels that read the bytes alike (an ASCII-only file declared
 * ISO-8859-1 and sent as UTF-8), there is no conflict and the declaration is used, since it came
 * with the file.
 * Without any of them the file must be UTF-8 (XML's default): bytes that are not valid UTF-8 are
 * refused rather than guessed at.
 *
 * UTF-8 and UTF-16 are decoded by TextDecoder (strict: invalid UTF-8 is an error, not U+FFFD);
 * the single-byte encodings by iconv-lite, which keeps them apart as labelled: ISO-8859-1 has
 * control characters at 0x80–0x9F where windows-1252 has € – “ ” and the like (Node's TextDecoder
 * reads "windows-1252" as ISO-8859-1, and WHATWG's reads "ISO-8859-1" as windows-1252: neither
 * does what the label says).
 */
export function decodeStatement(bytes: Uint8Array, charset?: string | null): string {
  const bom = byteOrderMark(bytes);
  const sniffed = bom ?? utf16Pattern(bytes);
  const declared = declaredEncoding(bytes, sniffed);
  const fromDeclaration = declared ? encodingNamed(declared, 'the XML declaration') : null;
  const fromCharset = charset ? encodingNamed(charset, 'the Content-Type charset') : null;

  if (sniffed) {
    // The byte order is in the bytes: a label may only say which Unicode encoding it is.
    for (const [label, encoding] of [
      [declared, fromDeclaration],
      [charset, fromCharset],
    ] as const) {
      if (encoding && !sameUnicode(encoding, sniffed))
        refuse(
          `The file is ${sniffed === 'utf8' ? 'UTF-8' : 'UTF-16'} (its first bytes say so) but is labelled ${label}.`,
        );
    }
    return decode(bytes, sniffed);
  }
  if (fromDeclaration && fromCharset && fromDeclaration !== fromCharset) {
    const [a, b] = [tryDecode(bytes, fromDeclaration), tryDecode(bytes, fromCharset)];
    if (a === null || a !== b)
      refuse(
        `The file declares encoding="${declared}" but was sent as charset=${charset}, and the two read it differently: send it without the charset.`,
      );
  }
  const encoding = fromDeclaration ?? fromCharset ?? 'utf8';
  if (encoding === 'utf8' && tryDecode(bytes, 'utf8') === null) {
    refuse(
      declared || charset
        ? `The file is labelled UTF-8 but is not valid UTF-8.`
        : 'The file declares no encoding and is not valid UTF-8: add its encoding to the XML declaration (e.g. encoding="ISO-8859-1").',
    );
  }
  return decode(bytes, encoding);
}

/** The charset parameter of a Content-Type header, if any (`application/xml; charset="ISO-8859-1"`). */
export function charsetOf(contentType: string | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match ? match[1]! : null;
}

const refuse = (detail: string): never => {
  throw new DomainError('statement_encoding', 'statement', detail);
};

/** A label as iconv-lite compares them: `UTF-8`, `utf8` and `Utf_8` are one. */
const plain = (label: string) => label.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The label, checked: one iconv-lite knows (every encoding banks use and many more); refuses any other. */
function encodingNamed(label: string, where: string): string {
  const name = plain(label);
  if (name && iconv.encodingExists(name)) return name === 'utf16' ? 'utf16le' : name;
  return refuse(`Unknown encoding "${label.slice(0, 40)}" in ${where}.`);
}

function byteOrderMark(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf16be';
  return null;
}

/** UTF-16 without a byte order mark: `<?` as two 16-bit units (XML 1.0 Appendix F). */
function utf16Pattern(bytes: Uint8Array): string | null {
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00) return 'utf16le';
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f) return 'utf16be';
  return null;
}

/** The declaration's encoding label, read from the file's start (ASCII in every encoding but UTF-16). */
function declaredEncoding(bytes: Uint8Array, sniffed: string | null): string | null {
  const head = Buffer.from(bytes.subarray(0, 512));
  const start = sniffed?.startsWith('utf16') ? iconv.decode(head, sniffed) : head.toString('latin1');
  const declaration = /^\uFEFF?<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']*)["']/.exec(start);
  return declaration ? declaration[1]! : null;
}

/** A label that fits a byte order mark: UTF-16 (either order, the mark decides) for UTF-16, UTF-8 for UTF-8. */
function sameUnicode(encoding: string, sniffed: string): boolean {
  return sniffed === 'utf8' ? encoding === 'utf8' : encoding.startsWith('utf16') || encoding === 'ucs2';
}

function tryDecode(bytes: Uint8Array, encoding: string): string | null {
  if (encoding === 'utf8' || encoding.startsWith('utf16')) {
    try {
      return new TextDecoder(encoding === 'utf8' ? 'utf-8' : encoding === 'utf16be' ? 'utf-16be' : 'utf-16le', {
        fatal: true,
      }).decode(bytes);
    } catch {
      return null;
    }
  }
  return iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), encoding, { stripBOM: true });
}

function decode(bytes: Uint8Array, encoding: string): string {
  const text = tryDecode(bytes, encoding);
  if (text === null) refuse(`The file is not valid ${encoding.toUpperCase()}.`);
  return text!;
}
