import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

/**
 * Time-based one-time passwords (RFC 6238) for the local identity provider, with the maintained
 * `otpauth` library: 6 digits, 30-second steps, HMAC-SHA1 — what every authenticator app reads
 * from an otpauth:// QR code. Production uses Auth0's multi-factor authentication instead.
 */
const PERIOD_SECONDS = 30;

const totpOf = (email: string, secret: string) =>
  new OTPAuth.TOTP({
    issuer: 'Muntly (local)',
    label: email,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });

/** A new secret (160 bits, base32), as RFC 4226 recommends. */
export const newTotpSecret = (): string => new OTPAuth.Secret({ size: 20 }).base32;

/** The otpauth:// URI an authenticator app reads, and its QR code as a PNG data URL. */
export async function totpEnrolment(email: string, secret: string): Promise<{ uri: string; qr: string }> {
  const uri = totpOf(email, secret).toString();
  return { uri, qr: await QRCode.toDataURL(uri, { errorCorrectionLevel: 'M', margin: 2, scale: 6 }) };
}

/**
 * The time step a code is right for (this one, or one step either side: a phone's clock drifts),
 * or null. A code works once: the caller refuses a step at or before the last one accepted.
 */
export function totpStep(email: string, secret: string, code: string, now = Date.now()): number | null {
  const token = code.replace(/\s/g, '');
  if (!/^\d{6}$/.test(token)) return null;
  const delta = totpOf(email, secret).validate({ token, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
}
