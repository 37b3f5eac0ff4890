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

export async function applyRetention(db: Db, now = new Date()): Promise<RetentionRun> {
  const identityDataDeleted = await deleteExpiredIdentityData(db, now);
  const messagesDeleted = await deleteExpiredMessages(db, now);
  return { identityDataDeleted, messagesDeleted, ranAt: now.toISOString() };
}
