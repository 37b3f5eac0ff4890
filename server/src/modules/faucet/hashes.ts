import { createHash, createHmac } from 'node:crypto';
import type { Hashes } from '#domain/faucet';

/** Node's native SHA-256 and HMAC for the server's draw: same results as the browser's @noble/hashes. */
export const nodeHashes: Hashes = {
  sha256Hex: (data) => createHash('sha256').update(data, 'utf8').digest('hex'),
  hmacSha256Hex: (keyHex, message) =>
    createHmac('sha256', Buffer.from(keyHex, 'hex')).update(message, 'utf8').digest('hex'),
};

/** SHA-256 of a seed's 32 bytes, as hex: one link down a seed chain (domain/faucet.ts seedHashOf). */
export const nodeSeedHash = (seedHex: string): string =>
  createHash('sha256').update(Buffer.from(seedHex, 'hex')).digest('hex');
