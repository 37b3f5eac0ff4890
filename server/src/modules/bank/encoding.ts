import { DomainError } from '../../../../domain/errors';

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
 * Decoding is WHATWG's TextDecoder (built into Node and browsers, every encoding banks use);
 * like browsers it reads the label ISO-8859-1 as windows-1252, which differs only in 0x80–0x9F
 * (control characters in ISO-8859-1, never in a name or a reason; € and the like in
 * windows-1252).
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
      if (encoding && !sameUnicode(encoding, sniffed)) refuse(`The file is ${sniffed.toUpperCase()} (its first bytes say so) but is labelled ${label}.`);
    }
    return decode(bytes, sniffed);
  }
  if (fromDeclaration && fromCharset && fromDeclaration !== fromCharset) {
    const [a, b] = [tryDecode(bytes, fromDeclaration), tryDecode(bytes, fromCharset)];
    if (a === null || a !== b) refuse(`The file declares encoding="${declared}" but was sent as charset=${charset}, and the two read it differently: send it without the charset.`);
  }
  const encoding = fromDeclaration ?? fromCharset ?? 'utf-8';
  if (encoding === 'utf-8' && tryDecode(bytes, 'utf-8') === null) {
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

/** WHATWG's name of an encoding label (utf8 → utf-8, latin1 → windows-1252); refuses a label it does not know. */
function encodingNamed(label: string, where: string): string {
  try {
    const encoding = new TextDecoder(label.trim()).encoding;
    // "replacement" is WHATWG's stand-in for encodings that must not be decoded (ISO-2022-KR …).
    if (encoding !== 'replacement') return encoding;
  } catch {
    // unknown label: refused below
  }
  return refuse(`Unknown encoding "${label.slice(0, 40)}" in ${where}.`);
}

function byteOrderMark(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return null;
}

/** UTF-16 without a byte order mark: `<?` as two 16-bit units (XML 1.0 Appendix F). */
function utf16Pattern(bytes: Uint8Array): string | null {
  if (bytes[0] === 0x3c && bytes[1] === 0x00 && bytes[2] === 0x3f && bytes[3] === 0x00) return 'utf-16le';
  if (bytes[0] === 0x00 && bytes[1] === 0x3c && bytes[2] === 0x00 && bytes[3] === 0x3f) return 'utf-16be';
  return null;
}

/** The declaration's encoding label, read from the file's start (ASCII in every encoding but UTF-16). */
function declaredEncoding(bytes: Uint8Array, sniffed: string | null): string | null {
  const head = bytes.subarray(0, 512);
  const start = sniffed?.startsWith('utf-16') ? new TextDecoder(sniffed).decode(head) : new TextDecoder('windows-1252').decode(head);
  const declaration = /^\uFEFF?<\?xml\s[^>]*?\bencoding\s*=\s*["']([^"']*)["']/.exec(start);
  return declaration ? declaration[1]! : null;
}

/** A label that fits a byte order mark: UTF-16 (either order, the mark decides) for UTF-16, UTF-8 for UTF-8. */
function sameUnicode(encoding: string, sniffed: string): boolean {
  return sniffed === 'utf-8' ? encoding === 'utf-8' : encoding.startsWith('utf-16');
}

function tryDecode(bytes: Uint8Array, encoding: string): string | null {
  try {
    return new TextDecoder(encoding, { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

function decode(bytes: Uint8Array, encoding: string): string {
  const text = tryDecode(bytes, encoding);
  if (text === null) refuse(`The file is not valid ${encoding.toUpperCase()}.`);
  return text!;
}
