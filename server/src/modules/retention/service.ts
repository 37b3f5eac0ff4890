import { sweepLimits } from '../../limits';
import { recordAudit } from '../audit/service';
import { deleteExpiredIdentityData } from '../identity/service';
import { deleteExpiredMessages } from '../notify/service';
import type { RetentionRun } from '../../../../domain/contracts/ops';
import type { Db } from '../../db/client';

/**
 * The privacy policy's retention promises, kept by code: identity data is deleted once its
 * retention date has passed, support messages after two years (their outbox rows carry the
 * date). Every replica runs this periodically (RETENTION_INTERVAL_MS) and operators can run it
 * with `npm run ops -- retention`; running it twice, or in two replicas at once, deletes nothing
 * twice. Server logs are not in the database: their 30 days are the log collector's setting
 * (see README, Operations).
 */
/** What a run deleted, as `POST /api/ops/retention` answers it (domain/contracts/ops.ts). */
export type { RetentionRun };

/**
 * One run, in one transaction. `operator`: who ran it by hand (the run is written to the audit
 * trail with what it deleted); without, the periodic job (each deletion of identity data is
 * still written, by 'retention').
 */
export async function applyRetention(db: Db, now = new Date(), operator?: string): Promise<RetentionRun> {
  return db.transaction(async (tx) => {
    const identityDataDeleted = await deleteExpiredIdentityData(tx, now, operator);
    const messagesDeleted = await deleteExpiredMessages(tx, now);
    // The counters of ended limit windows (server/src/limits.ts): no personal data, but no use either.
    await sweepLimits(tx, now);
    if (operator) await recordAudit(tx, { actor: operator, action: 'retention.run', after: { identityDataDeleted, messagesDeleted } });
    return { identityDataDeleted, messagesDeleted, ranAt: now.toISOString() };
  });
}
