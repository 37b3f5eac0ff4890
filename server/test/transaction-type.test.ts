/**
 * @jest-environment node
 */
import { auditAbout, recordAudit } from '../src/modules/audit/service';
import { walletOutflowGate } from '../src/modules/gates/service';
import { approvalNeeded } from '../src/modules/payouts/approval';
import { freshDatabase } from './helpers';
import type { Database, Db, Tx } from '../src/db/client';

/**
 * A function that must run inside its caller's transaction takes a `Tx` (server/src/db/client.ts):
 * handing it the bare database does not compile. `tsc -p server` checks this file, so each
 * `@ts-expect-error` below fails the typecheck the day the error it expects goes away.
 */
function typeChecks(db: Db, tx: Tx) {
  const record = { actor: 'ops:test', action: 'database.backup' as const };
  // @ts-expect-error the audit row must commit or roll back with the action it records
  void recordAudit(db, record);
  void recordAudit(tx, record);
  // @ts-expect-error a gate's pass is worth something only under the locks of the caller's transaction
  void walletOutflowGate(db, undefined as never, undefined as never);
  // @ts-expect-error the approval counts the day's payouts under the caller's locks
  void approvalNeeded(db, undefined as never, { currency: 'EUR', amount: 1n });
  // A transaction goes wherever the database does (repositories take either).
  const either: Db = tx;
  return either;
}

describe('what runs inside the caller’s transaction', () => {
  let database: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ database, drop } = await freshDatabase('pglite'));
  });
  afterAll(async () => drop());

  it('commits an audit row with its action and drops it when the action rolls back', async () => {
    expect(typeof typeChecks).toBe('function');
    await database.db.transaction((tx) =>
      recordAudit(tx, { actor: 'ops:test', action: 'database.backup', target: 'kept' }),
    );
    await expect(
      database.db.transaction(async (tx) => {
        await recordAudit(tx, { actor: 'ops:test', action: 'database.backup', target: 'undone' });
        throw new Error('the action failed');
      }),
    ).rejects.toThrow('the action failed');
    const targets = (await auditAbout(database.db, ['kept', 'undone'])).map((entry) => entry.target);
    expect(targets).toEqual(['kept']);
  });
});
