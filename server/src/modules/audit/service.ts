import { createHash } from 'node:crypto';
import { operatorActor } from '#domain/operators';
import { csvLine } from '../../csv';
import { auditRepository, type AuditRow, type AuditRowFilter } from './repository';
import type { AuditAction, AuditBreak, AuditState } from '#domain/audit';
import type { AuditEntry, AuditFilter, AuditVerifyResponse } from '#domain/contracts/audit';
import type { Db, Tx } from '../../db/client';

/**
 * The audit trail: every operator action and every read of a customer's personal data, one row
 * each, written by `recordAudit` inside the transaction of the action it records (both commit or
 * neither). Rows are append-only (database triggers) and chained: each row's hash covers the row
 * and the hash of the row before, so changing, removing or inserting a row anywhere but at the
 * end breaks the chain from there on, which `verifyAudit` (`npm run ops -- audit:verify`) finds.
 *
 * The hash is SHA-256 (hex) of the canonical JSON of [prev_hash, id, at, actor, action, target,
 * before, after], `at` as ISO 8601 UTC to the millisecond. Canonical JSON is the text PostgreSQL
 * gives a jsonb value (keys ordered by length, then bytes; ", " and ": " between items), so an
 * auditor can recompute any row with psql alone (docs/audit.md, "Audit trail"); migration 0021 chained
 * the rows written before it that way.
 */
export type AuditRecord = {
  /** Who: `actorOf(request)` for an operator, a job's name, or account:<accountKey> for a customer. */
  actor: string;
  action: AuditAction;
  /** What it was done to: an account key (never an email), an order reference, a payout id … */
  target?: string | null;
  /** The state the action changed, before and after it: status fields and amounts, never document contents, codes or secrets. */
  before?: AuditState | null;
  after?: AuditState | null;
};

/**
 * Who did it, for the audit trail: the operator's token subject (Auth0's user id; locally the
 * local user's id, or the CLI's OPS_SUBJECT), an identifier without an email in it. Every route
 * under /api/ops requires a token, so there always is one. It is also who approves a payout (four
 * eyes compare these): one issuer is trusted, so the subject alone names the operator — the
 * email in a local `<OPS_SUBJECT>:<email>` folded by domain/operators.ts, one person one operator.
 */
export const actorOf = (request: { auth?: { subject: string } }) =>
  request.auth ? operatorActor(request.auth.subject) : 'anonymous';

/** Appends one row to the chain. Call it inside the action's transaction, after its other writes (it locks the chain's head until commit). */
export async function recordAudit(tx: Tx, record: AuditRecord): Promise<void> {
  // Outside a transaction the row could commit without its action, or the action without it.
  if (!('rollback' in tx)) throw new Error('recordAudit runs inside the transaction of the action it records');
  const before = plain(record.before);
  const after = plain(record.after);
  const head = await auditRepository.lockHead(tx);
  const at = await auditRepository.now(tx);
  const row = {
    id: head.lastId + 1,
    at: new Date(at),
    actor: record.actor,
    action: record.action,
    target: record.target ?? null,
    before,
    after,
    prevHash: head.lastHash,
    hash: '',
  };
  row.hash = auditHash(row);
  await auditRepository.append(tx, row);
}

/**
 * Appends several rows to the chain at once (a statement import's matched payments): one lock of
 * the head, one reading of the clock, one insert; the head still moves one row at a time (its
 * trigger allows no more), so the chain is exactly what as many `recordAudit` calls would write.
 */
export async function recordAudits(tx: Tx, records: AuditRecord[]): Promise<void> {
  if (records.length === 0) return;
  if (!('rollback' in tx)) throw new Error('recordAudits runs inside the transaction of the action it records');
  const head = await auditRepository.lockHead(tx);
  const at = new Date(await auditRepository.now(tx));
  let { lastId, lastHash } = head;
  const rows: AuditRow[] = records.map((record) => {
    const row = {
      id: lastId + 1,
      at,
      actor: record.actor,
      action: record.action,
      target: record.target ?? null,
      before: plain(record.before),
      after: plain(record.after),
      prevHash: lastHash,
      hash: '',
    };
    row.hash = auditHash(row);
    lastId = row.id;
    lastHash = row.hash;
    return row;
  });
  await auditRepository.appendMany(tx, rows);
}

/**
 * An operator reads a list with customers' personal data in it (emails, messages, payout
 * destinations): the read is written to the audit trail in the same transaction, naming the view
 * and how many rows it showed (not the rows). An empty answer showed nobody's data: no row.
 */
export async function readPersonalData<T>(
  db: Db,
  actor: string,
  view: string,
  read: (tx: Tx) => Promise<T[]>,
): Promise<T[]> {
  return db.transaction(async (tx) => {
    const rows = await read(tx);
    if (rows.length > 0) await recordAudit(tx, { actor, action: 'personal.read', after: { view, rows: rows.length } });
    return rows;
  });
}

/**
 * The state as it reads back from jsonb: undefined fields dropped; a bigint or a fraction refused
 * (amounts are decimal strings: a float might not read back as the same text).
 */
function plain(state: AuditState | null | undefined): AuditState | null {
  if (!state) return null;
  const text = JSON.stringify(state, (_key, value: unknown) => {
    if (typeof value === 'bigint' || (typeof value === 'number' && !Number.isSafeInteger(value)))
      throw new Error(`audit values hold whole numbers only (amounts as decimal strings), not ${String(value)}`);
    return value;
  });
  return JSON.parse(text) as AuditState;
}

/** PostgreSQL's text of a jsonb value (of what JSON.parse gives). */
export function canonicalJson(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(', ')}]`;
  if (typeof value === 'object') {
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort(jsonbKeyOrder)
      .map((key) => `${JSON.stringify(key)}: ${canonicalJson(object[key])}`)
      .join(', ')}}`;
  }
  throw new Error(`audit values are JSON, not ${typeof value}`);
}

/** jsonb keeps an object's keys shorter first, then by their bytes. */
const jsonbKeyOrder = (a: string, b: string) =>
  Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b));

/** The row's hash, from its fields and the previous row's hash. */
export function auditHash(row: Omit<AuditRow, 'hash'>): string {
  const fields = [
    row.prevHash,
    row.id,
    row.at.toISOString(),
    row.actor,
    row.action,
    row.target,
    row.before ?? null,
    row.after ?? null,
  ];
  return createHash('sha256').update(canonicalJson(fields), 'utf8').digest('hex');
}

export type AuditVerification = AuditVerifyResponse;

const VERIFY_PAGE = 1000;

/**
 * Recomputes the whole chain, in order, from one snapshot of the database: every id follows the
 * one before, every prev_hash is the hash of the row before, every hash is its row's, and the
 * head names the last row. Answers the first row that breaks it.
 */
export async function verifyAudit(db: Db): Promise<AuditVerification> {
  return db.transaction(
    async (tx) => {
      const head = await auditRepository.head(tx);
      let previous: { id: number; hash: string | null } = { id: 0, hash: null };
      const broken = (id: number, reason: AuditBreak, message: string): AuditVerification => ({
        ok: false,
        rows: previous.id,
        lastId: head.lastId,
        lastHash: head.lastHash,
        broken: { id, reason, message },
      });
      for (;;) {
        const page = await auditRepository.chainPage(tx, {}, { after: previous.id, limit: VERIFY_PAGE });
        for (const row of page) {
          if (row.id !== previous.id + 1)
            return broken(
              row.id,
              'gap',
              `${row.id - previous.id > 2 ? `Rows ${previous.id + 1}–${row.id - 1} are` : `Row ${previous.id + 1} is`} missing before row ${row.id}.`,
            );
          if (row.prevHash !== previous.hash)
            return broken(
              row.id,
              'prev_hash',
              `Row ${row.id} does not name the hash of row ${previous.id} as its previous hash.`,
            );
          if (auditHash(row) !== row.hash)
            return broken(
              row.id,
              'hash',
              `Row ${row.id} was changed after it was written: its hash does not match its contents.`,
            );
          previous = { id: row.id, hash: row.hash };
        }
        if (page.length < VERIFY_PAGE) break;
      }
      if (previous.id !== head.lastId || previous.hash !== head.lastHash) {
        return broken(
          Math.max(previous.id, head.lastId),
          'head',
          `The chain ends at row ${previous.id}, but its head names row ${head.lastId}.`,
        );
      }
      return { ok: true, rows: previous.id, lastId: head.lastId, lastHash: head.lastHash, broken: null };
    },
    // One snapshot: rows written while this runs are neither half-seen nor mistaken for a break.
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The API's filter as rows: a date is the whole day (UTC); an action ending with a dot is a group. */
function rowFilter(filter: AuditFilter): AuditRowFilter {
  const group = filter.action?.endsWith('.');
  return {
    actor: filter.actor,
    target: filter.target,
    action: group ? undefined : filter.action,
    actionGroup: group ? filter.action : undefined,
    from: filter.from ? new Date(isDay(filter.from) ? `${filter.from}T00:00:00Z` : filter.from) : undefined,
    until: filter.to
      ? isDay(filter.to)
        ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000)
        : new Date(filter.to)
      : undefined,
  };
}

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);

export function auditEntry(row: AuditRow): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action,
    target: row.target,
    before: (row.before as AuditState | null) ?? null,
    after: (row.after as AuditState | null) ?? null,
    prevHash: row.prevHash,
    hash: row.hash,
  };
}

/** One page, newest first; `nextCursor` asks for the page after it. */
export async function listAudit(
  db: Db,
  filter: AuditFilter,
  page: { cursor?: number; limit: number },
): Promise<{ entries: AuditEntry[]; nextCursor: number | null }> {
  const rows = await auditRepository.page(db, rowFilter(filter), { before: page.cursor, limit: page.limit + 1 });
  const shown = rows.slice(0, page.limit);
  return { entries: shown.map(auditEntry), nextCursor: rows.length > page.limit ? shown[shown.length - 1]!.id : null };
}

/** The newest `limit` rows about any of these targets (an order, its payments and payouts; an account), oldest first. */
export async function auditAbout(db: Db, targets: string[], limit = 200): Promise<AuditEntry[]> {
  return (await auditRepository.ofTargets(db, [...new Set(targets)], limit)).map(auditEntry);
}

const CSV_COLUMNS = ['id', 'at', 'actor', 'action', 'target', 'before', 'after', 'prev_hash', 'hash'] as const;

/**
 * Every matching row in chain order (oldest first) as CSV, page by page (an export of the whole
 * trail need not fit in memory). `before` and `after` are written as their canonical JSON, the
 * text the hash covers.
 */
export async function* auditCsv(db: Db, filter: AuditFilter): AsyncGenerator<string> {
  yield csvLine(CSV_COLUMNS);
  const rows = rowFilter(filter);
  for (let after = 0; ;) {
    const page = await auditRepository.chainPage(db, rows, { after, limit: VERIFY_PAGE });
    yield page
      .map((row) =>
        csvLine([
          row.id,
          row.at.toISOString(),
          row.actor,
          row.action,
          row.target,
          row.before === null ? '' : canonicalJson(row.before),
          row.after === null ? '' : canonicalJson(row.after),
          row.prevHash,
          row.hash,
        ]),
      )
      .join('');
    if (page.length < VERIFY_PAGE) return;
    after = page[page.length - 1]!.id;
  }
}

/**
 * Who minted these operators, from the trail: the access tokens issued for them (`dev.token`, local
 * mode) and their admin grants (`admin.grant`), oldest first. Local mode lets one admin mint a
 * second operator identity and approve their own payout with it; the console shows this next to
 * the approval so that such four eyes are seen to be one person's.
 */
export async function identitiesIssued(
  db: Db,
  operators: string[],
): Promise<{ operator: string; by: string; action: 'dev.token' | 'admin.grant'; at: string }[]> {
  if (operators.length === 0) return [];
  const rows = await auditRepository.issuedTo(db, operators);
  return rows.map((row) => ({
    operator: row.target!,
    by: row.actor,
    action: row.action as 'dev.token' | 'admin.grant',
    at: row.at.toISOString(),
  }));
}
