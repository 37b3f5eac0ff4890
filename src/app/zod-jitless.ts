import { z } from 'zod';

/**
 * Import before any zod schema is built. The site's Content-Security-Policy forbids eval, so
 * zod's compiled validators cannot run in the browser anyway; jitless mode also skips zod's
 * `new Function` probe (made when an object schema is created), which the browser reports as a
 * CSP violation.
 */
z.config({ jitless: true });
