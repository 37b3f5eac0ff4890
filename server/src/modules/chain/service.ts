import { deriveAddress, type DERIVED_CURRENCIES, type Xpubs } from './derive';
import { chainRepository } from './repository';
import type { Db } from '../../db/client';

export { DERIVED_CURRENCIES, TEST_XPUBS, deriveAddress, type Xpubs } from './derive';

/**
 * The next unused address of the house key for a currency. Wallet reception addresses and the
 * receiving addresses of sell/swap orders draw from one counter, so no address serves two
 * purposes. Concurrent requests queue on the counter's row: each gets its own index.
 */
export async function nextHouseAddress(db: Db, xpubs: Xpubs, code: (typeof DERIVED_CURRENCIES)[number]): Promise<{ index: number; address: string }> {
  const index = await chainRepository.takeNextIndex(db, code);
  return { index, address: deriveAddress(code, xpubs, index) };
}
