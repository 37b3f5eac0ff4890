import { addressKey, controlMessage, controlScheme, verifyControl } from '#domain/control';
import { DomainError } from '#domain/errors';
import { recordAudit } from '../audit/service';
import { houseAddressPaths } from '../chain/service';
import { controlProofs, snapshotForControl, storeControl } from './service';
import type { ControlRequest, ControlRequestsResponse, ControlSubmitResponse } from '#domain/contracts/control';
import type { ControlProof, Reserves } from '#domain/contracts/liabilities';
import type { Db } from '../../db/client';

/**
 * Proofs of control of a snapshot's house addresses (issue 32; the schemes are domain/control.ts).
 * The signer asks what to sign (controlRequests) and posts what it signed (submitControl); only
 * proofs that verify here, with the code the browser runs, are stored, so everything
 * GET /api/liabilities/:id/control lists is a good signature of an address the snapshot lists.
 */

/** The house addresses a snapshot's reserves list, per currency. */
const listedAddresses = (reserves: Reserves) =>
  reserves.currencies.flatMap((c) =>
    (c.addresses ?? []).map((a) => ({ currency: c.currency, address: a.address, role: a.role })),
  );

/** What the signer is to sign for a published snapshot: every listed house address, with its message and where its key derives. */
export async function controlRequests(db: Db, snapshotId: number): Promise<ControlRequestsResponse> {
  const { digest, reserves } = await snapshotForControl(db, snapshotId);
  const listed = listedAddresses(reserves);
  const requests: ControlRequest[] = [];
  for (const currency of [...new Set(listed.map((a) => a.currency))]) {
    const mine = listed.filter((a) => a.currency === currency);
    const paths = await houseAddressPaths(
      db,
      currency,
      mine.filter((a) => a.role === 'change').map((a) => a.address),
    );
    for (const { address, role } of mine) {
      const key = addressKey(currency, address);
      // Every address Muntly derives has a scheme; one that has none could never be proven, so it is not asked for.
      if (!key) continue;
      const path = role === 'change' ? paths.get(address) : undefined;
      requests.push({
        currency,
        address,
        role,
        scheme: controlScheme(key),
        // An address the table places on another branch is not a change address: no index, and the signer refuses it.
        branch: role === 'change' ? 'change' : null,
        index: path?.branch === 'change' ? path.index : null,
        message: controlMessage({ snapshotId, digest, currency, address }),
      });
    }
  }
  return { snapshotId, digest, requests };
}

/**
 * Verifies and stores the signer's proofs, all or none, with one `liabilities.control` audit row
 * (public figures only: the addresses and schemes, which the snapshot publishes anyway). A proof
 * of an address the snapshot does not list is refused (validation_failed), one whose signature
 * does not verify too (invalid_signature, 422): nothing is stored then.
 */
export async function submitControl(
  db: Db,
  snapshotId: number,
  proofs: ControlProof[],
  actor: string,
): Promise<ControlSubmitResponse> {
  return db.transaction(async (tx) => {
    const snapshot = await snapshotForControl(tx, snapshotId);
    const listed = listedAddresses(snapshot.reserves);
    const isListed = new Set(listed.map((a) => `${a.currency} ${a.address}`));
    for (const proof of proofs) {
      if (!isListed.has(`${proof.currency} ${proof.address}`))
        throw new DomainError(
          'validation_failed',
          'proofs',
          `${proof.currency} ${proof.address} is not a house address of snapshot ${snapshotId}.`,
        );
      const verdict = verifyControl(proof, snapshot);
      if (!verdict.ok)
        throw new DomainError('invalid_signature', 'proofs', `${proof.currency} ${proof.address}: ${verdict.problem}.`);
    }
    for (const proof of proofs) await storeControl(tx, { ...proof, snapshotId });
    const controlled = (await controlProofs(tx, snapshotId)).length;
    await recordAudit(tx, {
      actor,
      action: 'liabilities.control',
      target: String(snapshotId),
      after: {
        digest: snapshot.digest,
        proofs: proofs.map((p) => ({ currency: p.currency, address: p.address, scheme: p.scheme })),
        controlled,
        listed: listed.length,
      },
    });
    return { stored: proofs.length, controlled, listed: listed.length };
  });
}
