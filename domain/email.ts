/**
 * An email address an order can be looked up with: something@domain.tld, at most 254
 * characters, compared in lower case. One rule for the order form and the API.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export const EMAIL_MAX_LENGTH = 254;

/** How addresses are compared: without surrounding spaces, in lower case (also what limits per email count by). */
export const emailKey = (input: string): string => input.trim().toLowerCase();

export function normalizeEmail(input: string): string | null {
  const email = emailKey(input);
  return EMAIL_PATTERN.test(email) && email.length <= EMAIL_MAX_LENGTH ? email : null;
}
