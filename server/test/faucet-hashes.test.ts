/**
 * @jest-environment node
 */
import fc from 'fast-check';
import { draw, nobleHashes, seedHashOf, ticketOf } from '#domain/faucet';
import { nodeHashes, nodeSeedHash } from '../src/modules/faucet/hashes';

// The server draws with Node's native crypto, the browser re-runs the draw with @noble/hashes:
// anyone checking a round must get the server's winner.
describe('faucet draw hashes', () => {
  it("gives the same results with Node's native hashes (the server's) as with @noble/hashes (the browser's)", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 20 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.option(fc.uint8Array({ minLength: 32, maxLength: 32 })),
        (addresses, seedBytes, block) => {
          const s = Buffer.from(seedBytes).toString('hex');
          const mix = block ? Buffer.from(block).toString('hex') : null;
          const ts = addresses.map((a) => ticketOf(7, a));
          expect(draw(s, 7, ts, mix, nodeHashes)).toEqual(draw(s, 7, ts, mix, nobleHashes));
          expect(nodeSeedHash(s)).toBe(seedHashOf(s));
        },
      ),
    );
  });
});
