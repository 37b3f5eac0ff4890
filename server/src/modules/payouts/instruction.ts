import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What authenticates a chain payout to the signer (issue 30): an HMAC-SHA256 of the instruction
 * (id, currency, destination, amounts, idempotency key) under a key only the API and the signer
 * hold, written when the payout is requested. A row written into the database by anyone else, or a
 * row whose destination or amount was changed, has no valid MAC and the signer refuses it.
 */
export type MacFields = {
  id: string;
  currency: string;
  destination: string | null;
  amount: bigint;
  networkFee: bigint;
  idempotencyKey: string;
};

const canonical = (f: MacFields) =>
  JSON.stringify([
    'muntly-payout-v1',
    f.id,
    f.currency,
    f.destination,
    f.amount.toString(),
    f.networkFee.toString(),
    f.idempotencyKey,
  ]);

export function instructionMac(key: Uint8Array, fields: MacFields): string {
  return createHmac('sha256', key).update(canonical(fields)).digest('hex');
}

export function instructionMacValid(key: Uint8Array, fields: MacFields, mac: string | null): boolean {
  if (!mac || !/^[0-9a-f]{64}$/.test(mac)) return false;
  return timingSafeEqual(Buffer.from(instructionMac(key, fields), 'hex'), Buffer.from(mac, 'hex'));
}

const KEY_FILE = 'signer-shared.key';

/**
 * The shared key: SIGNER_KEY (64 hex digits) where it is set (production), else a key kept in
 * DATA_DIR, made on first use, which the signer started with the same DATA_DIR reads too.
 */
export function sharedSignerKey(config: { SIGNER_KEY?: string; DATA_DIR: string }): Uint8Array {
  if (config.SIGNER_KEY) return Buffer.from(config.SIGNER_KEY, 'hex');
  const file = path.join(config.DATA_DIR, KEY_FILE);
  try {
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  } catch {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    const key = randomBytes(32).toString('hex');
    try {
      fs.writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    } catch {
      // Another process made it first: read theirs.
    }
    return Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'hex');
  }
}
