import { splitLanguage } from './languages';

/**
 * Where login sends the user back (issue 16): a page of this site only, never another site.
 *
 * The value is resolved exactly as the browser will resolve it, against the site's origin, and
 * kept only when it stays on that origin. String checks miss what URL parsing does: it drops
 * tabs and newlines (`/\t/evil.example` becomes `//evil.example`), reads a backslash as a slash
 * (`/\evil.example`), and normalizes dot segments (`/.//evil.example` has the path
 * `//evil.example`). The answer is the path, query and fragment, and never begins with two
 * slashes: given to `navigate()` or `location`, it cannot leave the site either.
 */
export function safeReturnTo(value: string | null | undefined, origin: string, fallback: string): string {
  if (!value) return fallback;
  const site = new URL(origin).origin;
  let url: URL;
  try {
    url = new URL(value, site);
  } catch {
    return fallback;
  }
  if (url.origin !== site) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // A path starting with `//` (or `/\`) would be read as another host once used as a URL again.
  if (!path.startsWith('/') || /^\/[/\\]/.test(path)) return fallback;
  return path;
}

/** The language-neutral paths a login never returns to: the home page and the login pages themselves. */
const NOT_A_DESTINATION = ['/', '/login/', '/register/', '/logout/'];

/**
 * Where a login ends (issue 35): the page the user came from, kept by `safeReturnTo`, or — when
 * none is recorded, or it was the home page or a login page — the logged-in user's own home
 * (`home`, the wallet's page in the page's language): what a new account holds and what to do next.
 */
export function loginLanding(value: string | null | undefined, origin: string, home: string): string {
  const path = safeReturnTo(value, origin, home);
  const bare = path.replace(/[?#].*$/, '');
  return NOT_A_DESTINATION.includes(splitLanguage(bare).path) ? home : path;
}
