/**
 * Proof of control of the house's addresses beside a proof of liabilities (issue 32): for each
 * address listed in a snapshot's reserves, the signer signs this message with the address's key,
 * and anyone can check the signature with a wallet of their own. The message names the address
 * and the snapshot's digest (domain/liabilities.ts snapshotDigest), so a signature proves control
 * at the time of that snapshot, not before it was taken.
 */
export function controlMessage(input: { snapshotId: number; digest: string; currency: string; address: string }): string {
  return `Muntly proof of reserves\nSnapshot ${input.snapshotId}, digest ${input.digest}\n${input.currency} address ${input.address} is controlled by Muntly.`;
}
