/**
 * One key per person for linking orders by email, apart from the address a message is sent to
 * (that one stays as the customer typed it, domain/email.ts). Two spellings a person cannot tell
 * apart, or that reach the same mailbox, get the same key. The key is for comparing, not for
 * showing: it follows Unicode's confusables, so `1` reads as `l` and `0` as `o`.
 *
 * Confusables come from `unhomoglyph` (nodeca, MIT): Unicode's confusables.txt (UTS #39) as a
 * character → prototype map, data version 13.0.0 (of the 6565 entries of 17.0.0, 6272 map the same;
 * 39 differ, e.g. palochka `ӏ` → `i` where 17.0.0 says `l`; 254 newer characters are missing).
 * Plain CommonJS with types, no dependencies, no install script, 128 kB unpacked (a 100 kB JSON
 * table). Its function maps each character once, so the NFD steps of skeleton() are added here.
 * Rejected: `confusables` (a hand-made English look-alike table, not UTS #39: `ß` → `B`, `ⅿ` → `m`,
 * it strips accents), `unicode-confusables` (confusables.txt 10.0.0, its type file is misnamed
 * `index.ts.d` so TypeScript gets no types, and it exports no plain skeleton), `decancer` (a
 * native binary).
 */
import unhomoglyph from 'unhomoglyph';

const GMAIL = 'gmail.com';

/** Domains that deliver to another domain's mailboxes (a Map: a domain named `__proto__` is no key of it). */
const DOMAIN_ALIASES: ReadonlyMap<string, string> = new Map([['googlemail.com', GMAIL]]);

/** Providers that ignore dots in the local part: `a.n.n.a@gmail.com` is `anna@gmail.com`. */
const DOTLESS_DOMAINS: ReadonlySet<string> = new Set([GMAIL]);

/** Folding settles in two rounds for nearly all text (one to fold, one to see nothing change); the bound only ensures an end. */
const MAX_FOLD_ROUNDS = 4;

/** An ASCII-compatible (punycode) label of an internationalised domain name. */
const PUNYCODE_PREFIX = 'xn--';

/** Zero-width spaces and joiners, soft hyphens, variation selectors: invisible, so dropped (UTS #39 since 15.1). */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Outside printable ASCII: such a domain is an IDN, written as punycode. */
const NON_ASCII = /[^\x20-\x7e]/;

/** Characters that would make `new URL` read something other than a host name (a path, a port, a %-escape, stripped tabs). */
const NOT_A_HOST = /[\s/?#\\:%@[\]]/;

/**
 * Full case folding. `toLowerCase()` is Unicode's full lower-case mapping (`İ` → `i̇`, `ẞ` → `ß`);
 * CaseFolding.txt folds further `ß` → `ss` and final `ς` → `σ`, done here. Its other extra folds
 * (ligatures `ﬀ`, `ŉ`, `ſ`, `ϐ`) are compatibility characters that NFKC has already replaced.
 */
function foldCase(text: string): string {
  return text.toLowerCase().replace(/ß/g, 'ss').replace(/ς/g, 'σ');
}

/** UTS #39 skeleton(): NFD, default-ignorables dropped, each character to its confusables.txt prototype, NFD again. */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD').replace(IGNORABLE, '')).normalize('NFD');
}

/**
 * A part of the address as compared: its skeleton, lower case again (prototypes can be capitals,
 * `0` → `O`), and `rn` written as `m`. The skeleton turns every `m` into `rn` (confusables.txt
 * `006D ; 0072 006E`), so writing `rn` back as `m` joins no more keys and keeps `gmail.com` readable.
 * A prototype can itself fold further (`ᐃ` → `Δ`, lower case `δ` → `ẟ`; `‰` → `º/₀₀`, NFKC `o/oo`),
 * so NFKC, case and skeleton repeat until nothing changes: a key folded again stays the same key.
 */
function foldPart(text: string): string {
  let folded = text;
  for (let round = 0; round < MAX_FOLD_ROUNDS; round += 1) {
    const next = foldCase(skeleton(foldCase(folded.normalize('NFKC')))).replace(/rn/g, 'm');
    if (next === folded) break;
    folded = next;
  }
  return folded;
}

/**
 * The domain as DNS compares it: each label folded like the local part except a punycode label
 * (`xn--…`, whose digits are code, not look-alikes), then punycode for an IDN, no trailing root
 * dot, an alias as its target.
 */
function foldDomain(text: string): string {
  let domain = text
    .split('.')
    .map((label) => (label.startsWith(PUNYCODE_PREFIX) ? label : foldPart(label)))
    .join('.');
  if (NON_ASCII.test(domain) && !NOT_A_HOST.test(domain)) {
    try {
      domain = new URL(`http://${domain}`).hostname;
    } catch {
      // Not a valid host name: the folded text is still a key.
    }
  }
  domain = domain.replace(/\.+$/, '');
  return DOMAIN_ALIASES.get(domain) ?? domain;
}

/** The key that links orders of one person by email, separate from the address a message is sent to. */
export function emailLinkKey(email: string): string {
  // NFKC first, so that a fullwidth `＠` is the `@` split on.
  const text = foldCase(String(email).normalize('NFKC').trim());
  const at = text.lastIndexOf('@');
  if (at < 0) return foldPart(text).normalize('NFC');
  const domain = foldDomain(text.slice(at + 1));
  let local = foldPart(text.slice(0, at));
  // Sub-addressing: `anna+shop` is delivered to `anna`, at every provider that offers it.
  const plus = local.indexOf('+');
  if (plus >= 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) local = local.replace(/\./g, '');
  // The skeleton is in NFD. NFC reads better in a table and joins only canonically equivalent text, which looks the same.
  return `${local}@${domain}`.normalize('NFC');
}
