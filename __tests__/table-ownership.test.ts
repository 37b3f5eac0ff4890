/**
 * Every table belongs to one module (issue 37, docs/decisions/0021-one-owner-per-table.md): it is
 * defined in server/src/db/schema/<owner>.ts, and only the owner's files read or write it. Another
 * module asks the owner's service. This test reads the schema files for who owns which table, then
 * every file of server/src/modules/<module>/ (and of server/src/dev/, the local stand-ins) for the
 * tables it imports from the schema and the tables its raw SQL names, and fails on a read of
 * another owner's table that is not in CROSS_READS below.
 *
 * CROSS_READS lists the reads across the walls that remain, each with why. A new one fails the
 * test; so does an entry no file needs any more, so the list only shrinks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';

const root = join(__dirname, '..');
const schemaDir = join(root, 'server/src/db/schema');

/** `<reader> → <table>`: a module (or dev/) reads or writes another owner's table. */
const CROSS_READS: Record<string, string> = {
  // Accounts makes a new account's five verification rows in the transaction that makes the
  // account; identity sits above accounts (it imports accounts' service), so accounts cannot ask it.
  'accounts → verifications': 'new account: its verification rows, in the same transaction',
  // The placing of an order (place_anonymous_order and the queries around it) and the check for a
  // verified business behind an order join verifications and accounts in one statement.
  'orders → accounts': 'verified business behind an order (exists subquery)',
  'orders → verifications': 'verified business behind an order (exists subquery)',
  // Payouts sit below orders and wallet (both import payouts' service), so payouts cannot ask them:
  // whose money a payout is, and what it is for, are joins.
  'payouts → orders': "a payout's order: beneficiary, list, retries",
  'payouts → wallet_sends': "a payout's send: beneficiary, list",
  'payouts → chain_house_txs': "the chain's record of a payout's transaction (fee, failure)",
  // The weekly volume (decision 0008) is a sum over the orders and the sends of a customer key,
  // taken under the gate's locks; volume owns no table of its own.
  'volume → orders': 'weekly volume: the sum of the week’s orders',
  'volume → wallet_sends': 'weekly volume: the sum of the week’s sends',
  // The proof of liabilities is one consistent read of the ledger and what is in flight (orders,
  // payouts), in one statement and one snapshot.
  'liabilities → ledger_accounts': 'snapshot: balances',
  'liabilities → orders': 'snapshot: orders in flight',
  'liabilities → payouts': 'snapshot: payouts in flight',
  // Retention erases personal data across every table that holds it, in raw SQL batches taken
  // FOR UPDATE SKIP LOCKED; each owner would have to offer its own erasure first.
  'retention → accounts': 'relationship ended: account age',
  'retention → ledger_accounts': 'relationship ended: no balance',
  'retention → ledger_transfers': 'relationship ended: no recent transfer',
  'retention → orders': 'erasure of an order’s personal fields',
  'retention → wallet_sends': 'erasure of a send’s address and label',
  'retention → outbox': 'deletion of old messages',
  'retention → bank_payments': 'erasure of a payer’s name and IBAN',
  'retention → payout_returns': 'erasure of a return’s holder name',
  'retention → bank_exports': 'pseudonymization of a pain.001 file',
  'retention → payouts': 'erasure of a payout’s destination',
  // Local mode only: the simulated bank reads the outbox for its transfer reasons, and the
  // benchmark's set-up resets the derivation counters.
  'dev → outbox': 'simulated payouts: the transfer reason sent',
  'dev → address_counters': 'bench set-up',
};

type Table = { name: string; sqlName: string; owner: string };

/** The tables, from server/src/db/schema/<owner>.ts. */
function tables(): Table[] {
  return readdirSync(schemaDir)
    .filter((file) => file.endsWith('.ts'))
    .flatMap((file) => {
      const owner = basename(file, '.ts');
      const text = readFileSync(join(schemaDir, file), 'utf8');
      return [...text.matchAll(/export const (\w+) = pgTable\(\s*'(\w+)'/g)].map(([, name, sqlName]) => ({
        name: name!,
        sqlName: sqlName!,
        owner,
      }));
    });
}

/** Source without its comments, so that prose ("… from orders …") is not read as SQL. */
function code(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .join('\n');
}

/** The tables one file reads or writes: imported from db/schema (values, not types) or named in its SQL. */
function tablesUsed(text: string, all: Table[]): Set<string> {
  const used = new Set<string>();
  const source = code(text);
  for (const [, typeOnly, names] of source.matchAll(
    /import\s+(type\s+)?\{([^}]*)\}\s*from\s*'[^']*\/db\/schema(?:\/\w+)?'/g,
  )) {
    if (typeOnly) continue;
    for (const specifier of names!.split(',').map((s) => s.trim())) {
      if (!specifier || specifier.startsWith('type ')) continue;
      const table = all.find((t) => t.name === specifier.split(/\s+as\s+/)[0]);
      if (table) used.add(table.sqlName);
    }
  }
  for (const table of all) {
    if (new RegExp(`\\b(from|join|into|update)\\s+"?${table.sqlName}\\b(?!\\.)`, 'i').test(source))
      used.add(table.sqlName);
  }
  return used;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** `<reader> → <table>` for every read of another owner's table, with the files that do it. */
function crossReads(all: Table[]): Map<string, string[]> {
  const readers = [
    ...readdirSync(join(root, 'server/src/modules')).map((m) => ({
      name: m,
      dir: join(root, 'server/src/modules', m),
    })),
    { name: 'dev', dir: join(root, 'server/src/dev') },
  ];
  const found = new Map<string, string[]>();
  for (const reader of readers) {
    for (const file of filesUnder(reader.dir)) {
      for (const sqlName of tablesUsed(readFileSync(file, 'utf8'), all)) {
        const table = all.find((t) => t.sqlName === sqlName)!;
        if (table.owner === reader.name) continue;
        const key = `${reader.name} → ${sqlName}`;
        found.set(key, [...(found.get(key) ?? []), file.slice(root.length + 1)]);
      }
    }
  }
  return found;
}

describe('table ownership', () => {
  const all = tables();
  const modules = readdirSync(join(root, 'server/src/modules'));

  it('gives every table one owner: a module, dev/ (local mode) or limits.ts', () => {
    expect(all.length).toBeGreaterThan(30);
    expect(new Set(all.map((t) => t.sqlName)).size).toBe(all.length);
    for (const table of all) expect([...modules, 'dev', 'limits']).toContain(table.owner);
  });

  it('re-exports every owner’s file from server/src/db/schema.ts, which drizzle-kit reads', () => {
    const barrel = readFileSync(join(root, 'server/src/db/schema.ts'), 'utf8');
    const owners = new Set(all.map((t) => t.owner));
    for (const owner of owners) expect(barrel).toContain(`export * from './schema/${owner}';`);
    expect(readFileSync(join(root, 'drizzle.config.ts'), 'utf8')).toContain("schema: './server/src/db/schema.ts'");
  });

  it('finds a table imported from the barrel or an owner’s file, or named in SQL, and not a row type', () => {
    const used = (text: string) => [...tablesUsed(text, all)].sort();
    expect(used("import { accounts, orders as o } from '../../db/schema';")).toEqual(['accounts', 'orders']);
    expect(used("import { payouts } from '../../db/schema/payouts';")).toEqual(['payouts']);
    expect(used('const q = sql`select 1 from ledger_accounts la join orders o on o.id = la.id`;')).toEqual([
      'ledger_accounts',
      'orders',
    ]);
    expect(used('await db.execute(sql`update wallet_sends set label = null`);')).toEqual(['wallet_sends']);
    expect(used("import type { accounts } from '../../db/schema';")).toEqual([]);
    expect(used("import { type accounts } from '../../db/schema';")).toEqual([]);
    expect(used('// the payout comes from orders or sends\nconst x = 1;')).toEqual([]);
  });

  it('lets a module read another owner’s table only where CROSS_READS says why', () => {
    const found = crossReads(all);
    const unexplained = [...found].filter(([key]) => !(key in CROSS_READS)).map(([key, files]) => `${key}: ${files}`);
    expect(unexplained).toEqual([]);
    // An entry nothing needs any more goes too: the list only shrinks.
    expect(Object.keys(CROSS_READS).filter((key) => !found.has(key))).toEqual([]);
  });
});
