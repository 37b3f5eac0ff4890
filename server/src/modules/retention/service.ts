import { sweepLimits } from '../../limits';
import { recordAudit } from '../audit/service';
import { deleteExpiredIdentityData } from '../identity/service';
import { deleteExpiredMessages } from '../notify/service';
import { eraseExpiredRecords, relationshipEnded, retentionCutoff } from './repository';
import type { RetentionRun } from '#domain/contracts/ops';
import type { Db } from '../../db/client';
import type { AnyColumn } from 'drizzle-orm';

/**
 * The privacy and AML policies' retention promises, kept by code. AML data (identity details,
 * the personal fields of orders, bank payments, bank payouts and payout files) is kept at least
 * five years after the END of the business relationship (repository.ts says what ends it), not
 * five years after it was written: an active customer keeps theirs. Support messages go after two
 * years (their outbox rows carry the date). Every replica runs this periodically
 * (RETENTION_INTERVAL_MS) and operators can run it with `npm run ops -- retention`; running it
 * twice, or in two replicas at once, deletes nothing twice. Server logs are not in the database:
 * their 30 days are the log collector's setting (see docs/retention.md, "Server logs").
 */
/** What a run deleted, as `POST /api/ops/retention` answers it (domain/contracts/ops.ts). */
export type { RetentionRun };

/**
 * One run, in one transaction, as of `now` (tests pass their own clock). `operator`: who ran it
 * by hand (the run is written to the audit trail with what it deleted); without, the periodic job
 * (each deletion of identity data is still written, by 'retention').
 */
export async function applyRetention(db: Db, now = new Date(), operator?: string): Promise<RetentionRun> {
  const cutoff = retentionCutoff(now);
  const ended = (accountId: AnyColumn) => relationshipEnded(accountId, cutoff);
  return db.transaction(async (tx) => {
    const identityDataDeleted = await deleteExpiredIdentityData(tx, now, operator, ended);
    const messagesDeleted = await deleteExpiredMessages(tx, now, ended);
    const recordsErased = await eraseExpiredRecords(tx, now, cutoff);
    // The counters of ended limit windows (server/src/limits.ts): no personal data, but no use either.
    await sweepLimits(tx, now);
    if (operator)
      await recordAudit(tx, {
        actor: operator,
        action: 'retention.run',
        after: { identityDataDeleted, messagesDeleted, ...recordsErased },
      });
    return { identityDataDeleted, messagesDeleted, recordsErased, ranAt: now.toISOString() };
  });
}
