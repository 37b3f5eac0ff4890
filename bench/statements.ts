/**
 * `npm run bench:statements`: importing a busy day's bank statement — a camt.053 with 1,500
 * entries as a bank writes them: most pay an open buy order (its short reference in the reason,
 * in the spellings payers use), some name nothing (the unmatched queue), some repeat an entry
 * already in the file (duplicates), a few are the bank's fees (debits, ignored) — through the
 * service the API route calls, on PGlite (what `npm start` runs) and on a real PostgreSQL (its own
 * database, created and dropped: BENCH_DATABASE_URL or TEST_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; BENCH_PGLITE_ONLY=1 skips it). Prints the time and
 * entries per second, and checks that every matching entry paid its order once. The goal
 * (issue 33): at most 3 s for 1,500 entries on both.
 * BENCH_ENTRIES changes the number of entries.
 */
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { openDatabase, type Database } from '../server/src/db/client';
import { orders } from '../server/src/db/schema';
import { importStatement } from '../server/src/modules/bank/service';
import { newReference } from '../server/src/modules/orders/service';
import { freshBtcAddress, record, type ResultRow } from './support';
import type { PayoutOutcomes } from '../server/src/modules/payouts/service';
import type { RatesAdapter } from '../server/src/modules/rates/service';

const adminUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ENTRIES = Number(process.env.BENCH_ENTRIES || 1500);
/** The target: importing a statement of ENTRIES lines takes at most this many seconds. */
const TARGET_SECONDS = 3;
const IBAN = 'DE89370400440532013000';
const rates: RatesAdapter = {
  current: async () => ({ at: new Date().toISOString(), rates: { BTC: '80000', EUR: '1' } as never }),
};

async function admin(query: string) {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(query);
  await client.end();
}

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function entry(ref: string, direction: 'CRDT' | 'DBIT', amount: string, reason: string, payer: string): string {
  const party = direction === 'CRDT' ? 'Dbtr' : 'Cdtr';
  return `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${direction}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-11-24</Dt></BookgDt><ValDt><Dt>2026-11-24</Dt></ValDt><AcctSvcrRef>${ref}</AcctSvcrRef><BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd><NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId></Refs><AmtDtls><TxAmt><Amt Ccy="EUR">${amount}</Amt></TxAmt></AmtDtls><RltdPties><${party}><Nm>${escape(payer)}</Nm></${party}><${party}Acct><Id><IBAN>FR1420041010050500013M02606</IBAN></Id></${party}Acct></RltdPties><RmtInf><Ustrd>${escape(reason)}</Ustrd></RmtInf></TxDtls></NtryDtls><AddtlNtryInf>SEPA-Gutschrift</AddtlNtryInf></Ntry>`;
}

/** The statement and the orders it pays: 85 % pay an order, 8 % name nothing, 5 % repeat an entry, 2 % are fees. */
function statement(shortReferences: string[]): { xml: string; paying: number } {
  const entries: string[] = [];
  let paying = 0;
  for (let i = 0; entries.length < ENTRIES; i++) {
    const roll = i % 100;
    const ref = `BENCH${String(i).padStart(8, '0')}`;
    if (roll < 85 && paying < shortReferences.length) {
      const short = shortReferences[paying++]!;
      // As payers write it: as shown, or lower case with a space.
      const reason = i % 2 === 0 ? short : short.toLowerCase().replace('-', ' ');
      entries.push(entry(ref, 'CRDT', '100.00', reason, `Payer ${i}`));
    } else if (roll < 93) entries.push(entry(ref, 'CRDT', '12.34', `Rechnung ${i}`, `Someone ${i}`));
    else if (roll < 98 && entries.length > 0) entries.push(entries[entries.length - 1]!);
    else entries.push(entry(ref, 'DBIT', '0.50', 'Entgelt', 'Bank'));
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><GrpHdr><MsgId>BENCH</MsgId><CreDtTm>2026-11-24T20:00:00</CreDtTm></GrpHdr><Stmt><Id>BENCH-1</Id><CreDtTm>2026-11-24T20:00:00</CreDtTm><Acct><Id><IBAN>${IBAN}</IBAN></Id></Acct>${entries.join('')}</Stmt></BkToCstmrStmt></Document>`;
  return { xml, paying };
}

async function seedOrders(database: Database, n: number): Promise<string[]> {
  const references = Array.from({ length: n }, () => newReference());
  for (let i = 0; i < n; i += 500) {
    await database.db.insert(orders).values(
      references.slice(i, i + 500).map((reference, j) => ({
        reference,
        shortReference: reference.slice(0, 9),
        type: 'buy' as const,
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: 10_000n,
        amountEur: 10_000n,
        email: `buyer${i + j}@bench.test`,
        emailKey: `buyer${i + j}@bench.test`,
        address: freshBtcAddress(),
        paymentMethod: 'bank',
        estimatedRate: '0.0000125',
        estimatedAmountConverted: 120_000n,
        fee: 150n,
        estimatedNetworkFee: 5_000n,
      })),
    );
  }
  return references.map((r) => r.slice(0, 9));
}

async function bench(label: string, database: Database): Promise<ResultRow[]> {
  await database.migrate();
  const shortReferences = await seedOrders(database, Math.ceil(ENTRIES * 0.85));
  const { xml, paying } = statement(shortReferences);
  const deps = {
    rates,
    outcomes: {} as PayoutOutcomes,
    account: {
      iban: IBAN,
      bic: 'COBADEFFXXX',
      name: 'Muntly',
      painVersion: '09' as const,
      address: { town: 'Berlin', country: 'DE' },
    },
  };
  const started = performance.now();
  let reported = 0;
  const result = await importStatement(database.db, deps, xml, 'bench', (progress) => {
    reported = progress.done;
  });
  const ms = performance.now() - started;
  const { rows } = (await database.db.execute(
    sql`select count(*)::int as n from orders where status = 'processing'`,
  )) as unknown as { rows: { n: number }[] };
  const fundedCount = rows[0]!.n;
  if (result.counts.booked !== paying || fundedCount !== paying)
    throw new Error(`${label}: ${result.counts.booked} booked, ${fundedCount} orders funded, expected ${paying}`);
  if (reported !== result.lines.length)
    throw new Error(`${label}: progress reported ${reported} of ${result.lines.length} lines`);
  const perSecond = Math.round((ENTRIES / ms) * 1000);
  console.log(
    `${label.padEnd(11)} ${ENTRIES} entries in ${(ms / 1000).toFixed(2)} s (${perSecond} entries/s): ${result.counts.booked} booked, ${result.counts.unmatched} unmatched, ${result.counts.duplicate} duplicates, ${result.counts.ignored} ignored`,
  );
  return [
    {
      benchmark: 'statements',
      figure: `import ${ENTRIES} entries (${label})`,
      value: `${(ms / 1000).toFixed(2)} s, ${perSecond} entries/s`,
      target: `≤ ${TARGET_SECONDS} s`,
      met: ms / 1000 <= TARGET_SECONDS,
    },
  ];
}

async function main() {
  const rows: ResultRow[] = [];
  const pglite = await openDatabase({ dataDir: '', inMemory: true });
  try {
    rows.push(...(await bench('PGlite', pglite)));
  } finally {
    await pglite.close();
  }
  if (!process.env.BENCH_PGLITE_ONLY) {
    const name = `muntly_bench_statements_${Date.now()}`;
    await admin(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const postgres = await openDatabase({ databaseUrl: url.toString(), dataDir: '' });
    try {
      rows.push(...(await bench('PostgreSQL', postgres)));
    } finally {
      await postgres.close();
      await admin(`drop database ${name}`);
    }
  }
  record(rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
