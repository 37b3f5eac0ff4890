import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  lt,
  or,
  sql,
} from 'drizzle-orm';
import { isErrorCode, type ErrorCode } from '#domain/errors';
import { rowOf } from '../../db/row';
import { accounts } from '../../db/schema/accounts';
import { verifications } from '../../db/schema/identity';
import { orders } from '../../db/schema/orders';
import type { Db, Tx } from '../../db/client';
import type { ExchangePass } from '../gates/service';

export type OrderRow = typeof orders.$inferSelect;
type OrderChange = Partial<typeof orders.$inferInsert>;

/**
 * The statements of placing an order, built once per database and prepared: building a drizzle
 * query over a 35-column table costs more CPU than PostgreSQL spends running it.
 *
 * `insert` writes the order, if its Idempotency-Key is new (the service writes its confirmation
 * email through notify, in the same transaction). `existing` finds the order of an Idempotency-Key.
 */
const P = (name: string) => sql.placeholder(name);
const PLACED_COLUMNS = [
  'reference',
  'shortReference',
  'type',
  'currencyFrom',
  'currencyTo',
  'amount',
  'amountEur',
  'email',
  'emailKey',
  'accountId',
  'address',
  'beneficiary',
  'payoutKey',
  'paymentMethod',
  'sendToMyWallet',
  'useMyWallet',
  'fromBusinessAccount',
  'estimatedRate',
  'estimatedAmountConverted',
  'fee',
  'estimatedNetworkFee',
  'idempotencyKey',
  'language',
  'receivingAddress',
  'codeHash',
  'codeExpiresAt',
] as const;
export type PlacedOrder = Pick<typeof orders.$inferInsert, (typeof PLACED_COLUMNS)[number]>;

function placeQueries(q: Db, name: string | null) {
  // Unnamed (name null) inside a transaction: planned each time, nothing left on the connection.
  const named = (suffix: string) => (name ? `${name}_${suffix}` : '');
  const existing = q
    .select()
    .from(orders)
    .where(eq(orders.idempotencyKey, P('key')))
    .prepare(named('existing'));
  const inserted = q.$with('inserted').as(
    q
      .insert(orders)
      .select(
        q.select(rowOf(orders, Object.fromEntries(PLACED_COLUMNS.map((c) => [c, P(c)])))).from(sql`(select 1) as one`),
      )
      .onConflictDoNothing()
      .returning(),
  );
  const insert = q.with(inserted).select().from(inserted).prepare(named('insert'));
  // place_anonymous_order (migrations 0016, 0019, 0030, 0042, 0044) returns rows of orders, which drizzle reads as such.
  const placed = q
    .$with('placed', getTableColumns(orders))
    .as(
      sql`select * from place_anonymous_order(${P('order')}::jsonb, ${P('mail')}::jsonb, ${P('keys')}::text[], ${P('since')}::timestamptz, ${P('firstOrderCap')}::bigint, ${P('weeklyCap')}::bigint, ${P('limitKey')}, ${P('limitMax')}::integer, ${P('limitWindow')}::interval)`,
    );
  const anonymous = q.with(placed).select().from(placed).prepare(named('anonymous'));
  return { existing, insert, anonymous };
}

/** A refusal raised by a placement function: its error code, or undefined for any other error. */
function refusalOf(error: unknown): ErrorCode | undefined {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    const message = (e as Error).message;
    if ((e as { code?: string }).code === 'MU001' && isErrorCode(message)) return message;
  }
  return undefined;
}

/** The wait a used-up limit raised by place_anonymous_order names (MU002, milliseconds), or undefined for any other error. */
function limitWaitOf(error: unknown): number | undefined {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === 'MU002') return Math.ceil(Number((e as { detail?: string }).detail));
  }
  return undefined;
}
const prepared = new WeakMap<Db, ReturnType<typeof placeQueries>>();
function preparedFor(db: Db) {
  let queries = prepared.get(db);
  if (!queries) prepared.set(db, (queries = placeQueries(db, 'place_order')));
  return queries;
}

/** A completed_failure order that expired before anyone paid it. */
const expiredUnpaid = and(
  eq(orders.status, 'completed_failure'),
  isNotNull(orders.expiredAt),
  isNull(orders.amountReceived),
);

/** Whether a verified business stands behind the order: its account's, or that of an account with its email. */
function verifiedBusiness(q: Db) {
  return exists(
    q
      .select({ one: verifications.accountId })
      .from(verifications)
      .innerJoin(accounts, eq(accounts.id, verifications.accountId))
      .where(
        and(
          eq(verifications.kind, 'business'),
          eq(verifications.phase, 'verified'),
          or(eq(accounts.id, orders.accountId), eq(accounts.email, orders.email)),
        ),
      ),
  );
}

/** SQL for orders. Methods take the database or a transaction, so services compose them. */
export const ordersRepository = {
  /** Every sell and swap receiving address (the house's addresses on its orders' branch), by currency. */
  receivingAddresses(db: Db): Promise<{ currency: string; address: string }[]> {
    return db
      .select({ currency: orders.currencyFrom, address: sql<string>`${orders.receivingAddress}` })
      .from(orders)
      .where(isNotNull(orders.receivingAddress))
      .orderBy(asc(orders.currencyFrom), asc(orders.createdAt));
  },

  /** The order placed with this Idempotency-Key, if any (prepared once per database). */
  async findByIdempotencyKey(db: Db, key: string | null): Promise<OrderRow | undefined> {
    const [row] = await preparedFor(db).existing.execute({ key });
    return row;
  },

  /** Inserts the order (the exchange gate admitted it); undefined when its Idempotency-Key is already taken. */
  async insertPlaced(tx: Tx, values: PlacedOrder, _pass: ExchangePass): Promise<OrderRow | undefined> {
    const [row] = await placeQueries(tx, null).insert.execute(values);
    return row;
  },

  /**
   * An anonymous order in one round trip (place_anonymous_order, migrations 0042 and 0044): the order of its
   * Idempotency-Key if there is one, else the email's placement limit (take_limit: a used-up one
   * answers the wait), then — under the customer's volume locks — the first-order and weekly caps
   * (anonymous_cap_refusal), then the order with its confirmation email, kept as a template for
   * notify's writer (migration 0044; notify/outbox-writer.ts). A cap refuses with its
   * error code; a refusal takes no use of the limit.
   */
  async placeAnonymous(
    db: Db,
    values: PlacedOrder,
    /** What notify writes the confirmation email from (its outbox keeps it: notify/outbox-writer.ts). */
    mail: object,
    rules: {
      lockKeys: string[];
      since: Date;
      firstOrderCap: bigint;
      weeklyCap: bigint;
      limit?: { key: string; max: number; windowMs: number };
    },
    _pass: ExchangePass,
  ): Promise<{ row: OrderRow } | { refused: ErrorCode } | { waitMs: number }> {
    const order = Object.fromEntries(PLACED_COLUMNS.map((c) => [orders[c].name, values[c] ?? null]));
    try {
      const [row] = await preparedFor(db).anonymous.execute({
        order: JSON.stringify(order, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value)),
        mail: JSON.stringify(mail),
        keys: rules.lockKeys,
        since: rules.since.toISOString(),
        firstOrderCap: rules.firstOrderCap.toString(),
        weeklyCap: rules.weeklyCap.toString(),
        limitKey: rules.limit?.key ?? null,
        limitMax: rules.limit?.max ?? null,
        limitWindow: rules.limit ? `${rules.limit.windowMs} milliseconds` : null,
      });
      return { row: row! };
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) return { refused };
      const waitMs = limitWaitOf(error);
      if (waitMs !== undefined) return { waitMs };
      throw error;
    }
  },

  async insertDeposit(tx: Tx, values: typeof orders.$inferInsert): Promise<OrderRow> {
    const [row] = await tx.insert(orders).values(values).returning();
    return row!;
  },

  async update(db: Db, id: string, change: OrderChange): Promise<OrderRow> {
    const [row] = await db.update(orders).set(change).where(eq(orders.id, id)).returning();
    return row!;
  },

  /** The change, only while the order is still processing; undefined when it no longer is. */
  async updateIfProcessing(db: Db, id: string, change: OrderChange): Promise<OrderRow | undefined> {
    const [row] = await db
      .update(orders)
      .set(change)
      .where(and(eq(orders.id, id), eq(orders.status, 'processing')))
      .returning();
    return row;
  },

  async findById(db: Db, id: string): Promise<OrderRow | undefined> {
    const [row] = await db.select().from(orders).where(eq(orders.id, id));
    return row;
  },

  async existsByReference(db: Db, reference: string): Promise<boolean> {
    const [order] = await db.select({ id: orders.id }).from(orders).where(eq(orders.reference, reference)).limit(1);
    return order !== undefined;
  },

  /** Paid orders the worker still has to convert, and those funded before the cutoff. */
  async settlementBacklog(db: Db, cutoff: Date): Promise<{ waiting: number; delayed: number }> {
    const [row] = await db
      .select({
        waiting: count(),
        delayed: count(sql`case when ${orders.fundedAt} < ${cutoff.toISOString()} then 1 end`),
      })
      .from(orders)
      .where(and(eq(orders.status, 'processing'), isNull(orders.settledAt)));
    return { waiting: Number(row?.waiting ?? 0), delayed: Number(row?.delayed ?? 0) };
  },

  async referencesOf(db: Db, ids: string[]): Promise<{ id: string; reference: string; accountId: string | null }[]> {
    if (ids.length === 0) return [];
    return db
      .select({ id: orders.id, reference: orders.reference, accountId: orders.accountId })
      .from(orders)
      .where(inArray(orders.id, ids));
  },

  async lockById(tx: Tx, id: string): Promise<OrderRow | undefined> {
    const [row] = await tx.select().from(orders).where(eq(orders.id, id)).for('update');
    return row;
  },

  async lockByReference(tx: Tx, reference: string): Promise<OrderRow | undefined> {
    const [row] = await tx.select().from(orders).where(eq(orders.reference, reference)).for('update');
    return row;
  },

  async findByReference(db: Db, reference: string): Promise<OrderRow | undefined> {
    const [row] = await db.select().from(orders).where(eq(orders.reference, reference));
    return row;
  },

  async findByEmailAndReference(db: Db, email: string, reference: string): Promise<OrderRow | undefined> {
    const [row] = await db
      .select()
      .from(orders)
      .where(and(eq(orders.reference, reference), eq(orders.email, email)));
    return row;
  },

  /** The account's orders, newest first. */
  ofAccount(db: Db, accountId: string, limit: number): Promise<OrderRow[]> {
    return db.select().from(orders).where(eq(orders.accountId, accountId)).orderBy(desc(orders.createdAt)).limit(limit);
  },

  /**
   * Operators' search, newest first: by reference (full or short, normalized), or by part of the
   * email, status, type and the time of placing.
   */
  search(
    db: Db,
    filter: {
      reference?: string;
      shortReference?: string;
      emailContains?: string;
      status?: OrderRow['status'];
      type?: OrderRow['type'];
      from?: Date;
      until?: Date;
      accountId?: string;
      email?: string;
    },
    limit: number,
  ): Promise<OrderRow[]> {
    const pattern =
      filter.emailContains === undefined ? undefined : `%${filter.emailContains.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return db
      .select()
      .from(orders)
      .where(
        and(
          filter.reference !== undefined ? eq(orders.reference, filter.reference) : undefined,
          filter.shortReference !== undefined ? eq(orders.shortReference, filter.shortReference) : undefined,
          pattern !== undefined ? sql`${orders.email} like ${pattern}` : undefined,
          filter.status ? eq(orders.status, filter.status) : undefined,
          filter.type ? eq(orders.type, filter.type) : undefined,
          filter.from ? sql`${orders.createdAt} >= ${filter.from.toISOString()}::timestamptz` : undefined,
          filter.until ? lt(orders.createdAt, filter.until) : undefined,
          // An account's orders: placed while logged in, or with its email.
          filter.accountId !== undefined
            ? or(eq(orders.accountId, filter.accountId), filter.email ? eq(orders.email, filter.email) : undefined)
            : undefined,
        ),
      )
      .orderBy(desc(orders.createdAt))
      .limit(limit);
  },

  /** The open buy orders (new, or expired unpaid) with these short references, locked: the newest one per short reference. */
  async lockPayableBuys(tx: Tx, shortReferences: string[]): Promise<OrderRow[]> {
    if (shortReferences.length === 0) return [];
    const rows = await tx
      .select()
      .from(orders)
      .where(
        and(
          inArray(orders.shortReference, shortReferences),
          eq(orders.type, 'buy'),
          or(eq(orders.status, 'new'), expiredUnpaid),
          eq(orders.useMyWallet, false),
        ),
      )
      .orderBy(desc(orders.createdAt))
      .for('update');
    const newest = new Map<string, OrderRow>();
    for (const row of rows) if (!newest.has(row.shortReference)) newest.set(row.shortReference, row);
    return [...newest.values()];
  },

  /** Marks orders funded by their bank payments, in one statement: what `update` does for each in bankPaymentReceived. */
  async fundMany(
    tx: Tx,
    funded: { id: string; amountReceived: bigint; payerKey: string | null }[],
    at: Date,
  ): Promise<void> {
    if (funded.length === 0) return;
    const values = sql.join(
      funded.map((f) => sql`(${f.id}::uuid, ${f.amountReceived.toString()}::numeric, ${f.payerKey}::text)`),
      sql`, `,
    );
    await tx.execute(sql`
      update orders set status = 'processing', amount_received = v.amount, funded_at = ${at.toISOString()}::timestamptz, updated_at = ${at.toISOString()}::timestamptz, failure_reason = null, completed_at = null, payer_key = v.payer_key
      from (values ${values}) as v(id, amount, payer_key)
      where orders.id = v.id`);
  },

  /** The order whose own receiving address this is, locked. */
  async lockByReceivingAddress(tx: Tx, currency: string, address: string): Promise<OrderRow | undefined> {
    const [row] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.receivingAddress, address), eq(orders.currencyFrom, currency)))
      .for('update');
    return row;
  },

  /** Unpaid orders placed before the cutoff, locked (others' locked ones skipped). */
  lockUnpaidBefore(tx: Tx, cutoff: Date, limit: number, now: Date): Promise<{ id: string }[]> {
    return (
      tx
        .select({ id: orders.id })
        .from(orders)
        // An order paid from the wallet waits for its code only as long as the code lives.
        .where(
          and(
            eq(orders.status, 'new'),
            or(lt(orders.createdAt, cutoff), and(isNotNull(orders.codeHash), lt(orders.codeExpiresAt, now))),
          ),
        )
        .limit(limit)
        .for('update', { skipLocked: true })
    );
  },

  async hasVerifiedBusiness(tx: Tx, id: string): Promise<boolean> {
    const [row] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.id, id), verifiedBusiness(tx)));
    return row !== undefined;
  },

  /** Orders held for a business that has since been verified go on. */
  async releaseBusinessHolds(db: Db): Promise<void> {
    await db
      .update(orders)
      .set({ businessHold: false, updatedAt: new Date() })
      .where(and(eq(orders.businessHold, true), verifiedBusiness(db)));
  },

  /** The funded order waiting longest for the worker, locked; other workers' locked ones are skipped. */
  async claimNextFunded(tx: Tx): Promise<OrderRow | undefined> {
    const [claimed] = await tx
      .select({ id: orders.id })
      .from(orders)
      .where(
        and(
          eq(orders.status, 'processing'),
          isNull(orders.settledAt),
          eq(orders.businessHold, false),
          eq(orders.reviewHold, false),
        ),
      )
      .orderBy(asc(orders.fundedAt))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!claimed) return undefined;
    const [row] = await tx.select().from(orders).where(eq(orders.id, claimed.id));
    return row;
  },
};
