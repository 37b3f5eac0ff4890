/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { EXCHANGE_PATHS, OUTFLOW_PATHS } from '#domain/gates';

/**
 * Every place where value is exchanged or leaves passes its gate (issue 29). The types do most of
 * it: a payout (`requestPayout`), an order's write (`insertPlaced`, `placeAnonymous`), a wallet
 * debit for an order and a conversion each need a pass only modules/gates makes. This test
 * lists every place in the server that moves money or writes a conversion, so that a new one
 * fails here until someone has said which gate it passes (and added it below).
 */
const SRC = path.join(__dirname, '../src');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Calls of a function by name (not its definition), per file relative to server/src. */
function callSites(name: string): Record<string, number> {
  const sites: Record<string, number> = {};
  for (const file of sources(SRC)) {
    const text = fs.readFileSync(file, 'utf8');
    const calls = [...text.matchAll(new RegExp(`(?<![\\w.])(?:\\w+\\.)?${name}\\(`, 'g'))].filter(
      (match) => !/function\s*$|async\s*$/.test(text.slice(Math.max(0, match.index! - 20), match.index)),
    );
    if (calls.length) sites[path.relative(SRC, file)] = calls.length;
  }
  return sites;
}

describe('every path that exchanges value or lets it leave passes a gate', () => {
  it('payouts: an order’s delivery and refund, a wallet send, an unclaimed payment’s or chain output’s return — each with the outflow gate’s pass', () => {
    expect(callSites('requestPayout')).toEqual({
      'modules/orders/settlement.ts': 2, // order_delivery, order_refund: orderOutflowGate
      'modules/wallet/sends.ts': 1, // wallet_send: walletOutflowGate, with the login, before the code is judged
      'modules/bank/service.ts': 1, // payment_refund: orderOutflowGate
      'modules/incoming/service.ts': 1, // chain_return: orderOutflowGate, an operator's decision judged by four eyes
      'modules/bank/returns.ts': 1, // a returned payout paid again to the customer's new IBAN: orderOutflowGate('order_delivery'), four eyes as any payout
    });
  });

  it('orders are written by the placement only, each with the exchange gate’s pass; deposits by the bank intake (judged when converted)', () => {
    expect(callSites('insertPlaced')).toEqual({ 'modules/orders/service.ts': 1 });
    expect(callSites('placeAnonymous')).toEqual({ 'modules/orders/service.ts': 1 });
    expect(callSites('insertDeposit')).toEqual({ 'modules/orders/intake.ts': 1 });
    // The conversion itself, and an order's debit of the wallet, take the pass too.
    expect(callSites('convert')).toEqual({ 'modules/orders/settlement.ts': 1 });
    expect(callSites('debitWallet')).toEqual({ 'modules/orders/service.ts': 2 });
  });

  it('every ledger transfer is a known one: money arriving, a conversion, a hold for a payout, or its return', () => {
    expect(callSites('transfer')).toEqual({
      'modules/orders/intake.ts': 2, // a bank payment, crypto at an order's address: arriving (no gate: nothing leaves)
      'modules/orders/service.ts': 1, // debitWallet: an order's money from the wallet (exchange gate; outflow gate when it pays out)
      'modules/orders/settlement.ts': 5, // the fee, the delivery into the wallet, euros kept, the fee's return, a refund into the wallet
      'modules/wallet/sends.ts': 1, // an internal send: walletOutflowGate's pass is taken before
      'modules/wallet/deposits.ts': 1, // a chain deposit to a reception address: arriving
      'modules/bank/service.ts': 1, // an unclaimed payment booked in before its refund payout
      'modules/faucet/draw.ts': 1, // a faucet reward: from the faucet's budget into the wallet, nothing leaves
      'modules/payouts/service.ts': 6, // holds into clearing, their completion or return, the difference between the fee charged and the fee the signer paid (the house's), and ether's gas the house pays (sweeps, a failed payout)
      'modules/chain/watcher.ts': 2, // coins nothing expected booked to the unmatched account, and booked back when their block left the chain (from the fees account once returned): arriving, nothing leaves
      'modules/chain/xrp-watcher.ts': 2, // an XRP payment nothing expected booked to the unmatched account (arriving); a fee the house account paid outside a payout, from the fees account (nothing leaves the ledger's accounts but the chain's)
      'modules/incoming/service.ts': 2, // a credited chain deposit booked back after a reorg; an operator's assignment of an unmatched output to a wallet: arriving
      'modules/bank/returns.ts': 2, // a payout the payee's bank returned, back from the bank into the returns account, and the bank's charge on it from the fees account: arriving, nothing leaves
    });
  });

  it('a pass is made in modules/gates only, and every path the domain names is one a gate is asked for', () => {
    const minting = sources(SRC).filter((file) =>
      /as (ExchangePass|OutflowPass)\b/.test(fs.readFileSync(file, 'utf8')),
    );
    expect(minting.map((file) => path.relative(SRC, file))).toEqual(['modules/gates/service.ts']);
    const all = sources(SRC)
      .map((file) => fs.readFileSync(file, 'utf8'))
      .join('\n');
    for (const pathName of [...EXCHANGE_PATHS, ...OUTFLOW_PATHS])
      expect({ pathName, used: all.includes(`'${pathName}'`) }).toEqual({ pathName, used: true });
  });
});
