import type { Chain } from './service';

type Fetch = (
  url: string,
  init?: { signal?: AbortSignal },
) => Promise<{ ok: boolean; status: number; text(): Promise<string> }>;

/**
 * The Bitcoin chain read through an Esplora API (Blockstream's or mempool.space's public one, or
 * the operator's own: CHAIN_BLOCKS_URL): the blocks the faucet mixes into its draws. It reads no
 * balances: the house's addresses are published with the proof of liabilities, and anyone looks
 * them up on any explorer (an auditor with signed messages from them, docs/proof-of-solvency.md). Deposits are
 * already on the real chain, so there is nothing to record.
 */
export function esploraChain(options: { baseUrl: string; fetch?: Fetch }): Chain {
  const get = options.fetch ?? (globalThis.fetch as unknown as Fetch);
  const base = options.baseUrl.replace(/\/$/, '');

  async function text(path: string): Promise<string | null> {
    const response = await get(`${base}${path}`, { signal: AbortSignal.timeout(5000) });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`block explorer answered ${response.status}`);
    return (await response.text()).trim();
  }
  const hash = (value: string | null) => (value && /^[0-9a-f]{64}$/.test(value) ? value : null);

  return {
    name: 'bitcoin',
    async tip() {
      const height = Number(await text('/blocks/tip/height'));
      if (!Number.isSafeInteger(height) || height < 0) throw new Error('block explorer: no tip height');
      const tipHash = hash(await text(`/block-height/${height}`));
      if (!tipHash) throw new Error('block explorer: no tip hash');
      return { height, hash: tipHash };
    },
    async block(_db, height) {
      const found = hash(await text(`/block-height/${height}`));
      return found ? { height, hash: found } : null;
    },
    async balances() {
      return null;
    },
    async received() {},
  };
}
