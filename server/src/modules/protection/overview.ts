import { eur } from '#domain/money';
import { maskPhrase } from '#domain/protection';
import { antiPhishingPhrase } from '../notify/service';
import { listBook } from './address-book';
import { HOUR_MS, isFrozen, type ProtectionSettings } from './context';
import { protectionOf } from './outflow';
import { protectionRepository } from './repository';
import type { SecurityOverview } from '#domain/contracts/protection';
import type { Db } from '../../db/client';

// Account protection (the invariants: service.ts): the overview of GET /api/wallet/security.

const EVENTS_SHOWN = 50;

export async function securityOverview(
  db: Db,
  settings: ProtectionSettings,
  accountId: string,
): Promise<SecurityOverview> {
  const row = await protectionOf(db, accountId);
  const now = new Date();
  const [book, events, phrase] = await Promise.all([
    listBook(db, accountId),
    protectionRepository.recentEvents(db, accountId, EVENTS_SHOWN),
    antiPhishingPhrase(db, accountId),
  ]);
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    allowListOnly: row.allowListOnly,
    allowListOffFrom: row.allowListOnly ? new Date(row.allowListSince.getTime() + settings.holdMs).toISOString() : null,
    phrase: phrase ? { masked: maskPhrase(phrase.phrase), setAt: phrase.setAt.toISOString() } : null,
    frozen: isFrozen(row, now),
    frozenAt: isFrozen(row, now) ? iso(row.frozenAt) : null,
    frozenByOperator: isFrozen(row, now) && row.frozenByOperator,
    unfreezesAt: isFrozen(row, now) ? iso(row.unfreezesAt) : null,
    unfreezeCodeSent: isFrozen(row, now) && row.unfreezeCodeExpiresAt !== null && row.unfreezeCodeExpiresAt > now,
    sendsPausedUntil: row.sendsPausedUntil && row.sendsPausedUntil > now ? row.sendsPausedUntil.toISOString() : null,
    holdHours: settings.holdMs / HOUR_MS,
    secondFactorAboveEur: eur(settings.secondFactorAboveEurMinor),
    addressBook: book,
    events: events.map((event) => ({
      kind: event.kind,
      at: event.createdAt.toISOString(),
      client: event.client,
      detail: (event.detail as Record<string, string> | null) ?? null,
    })),
  };
}
