import { BRANCH_CHILD, deriveAddress, type Branch, type DERIVED_CURRENCIES, type Xpubs } from './derive';
import { chainRepository } from './repository';
import type { Db } from '../../db/client';

export { DERIVED_CURRENCIES, TEST_XPUBS, deriveAddress, houseKey, type Branch, type Xpubs } from './derive';

/**
 * The next unused address of the house key for a currency, on a branch: users' reception
 * addresses or orders' receiving addresses (derive.ts). Each branch has its own counter (XRP's
 * tags one for both, since they share one account), so no address serves two purposes.
 * Concurrent requests queue on the counter's row: each gets its own index.
 */
export async function nextHouseAddress(db: Db, xpubs: Xpubs, code: (typeof DERIVED_CURRENCIES)[number], branch: Branch): Promise<{ index: number; address: string }> {
  // The users' counter keeps the currency's bare name: it is the one every address used before orders had a branch.
  const counter = branch === 'orders' && code !== 'XRP' ? `${code}/${BRANCH_CHILD.orders}` : code;
  const index = await chainRepository.takeNextIndex(db, counter);
  return { index, address: deriveAddress(code, xpubs, index, branch) };
}
