import { createHash } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { DomainError } from '#domain/errors';
import { decimalToMinor } from '#domain/money';

/**
 * Reads a camt.053 bank statement (ISO 20022 BankToCustomerStatement), or a camt.054
 * notification (BankToCustomerDebitCreditNotification, what banks push during the day), into
 * the payments it reports, one line per payment: an entry (Ntry) is one line, or one per
 * transaction (TxDtls) when the bank booked several payments as one batched entry. Pure: no
 * database, no decisions about what a line means (service.ts decides).
 *
 * Written for camt.053.001.02, the version most EU banks deliver (the DK's and EPC's formats),
 * and read the same way up to .001.08 (tested with .02 and .08): the paths that moved between
 * versions (the entry's status, the payer's name, a transaction's amount) are read in both forms.
 * A camt.054's Ntfctn holds the same Acct and Ntry as a camt.053's Stmt (the same ISO
 * components), so both are read by the same code (tested with camt.054.001.02 and .08).
 * Namespace prefixes are ignored, amounts stay decimal strings until they become minor units.
 * The bytes were decoded before (encoding.ts).
 */
export type StatementLine = {
  /**
   * The bank's reference of the payment, stable across imports: the entry's AcctSvcrRef, else its
   * NtryRef, else a hash of the entry; `<ref>/<n>` for the n-th payment of a batched entry.
   */
  ref: string;
  direction: 'credit' | 'debit';
  /** Booked (BOOK); pending or information-only entries are not money yet. */
  booked: boolean;
  /** In minor units with two decimals; null when the amount is not a plain decimal. */
  amount: bigint | null;
  /** As written (the decimal string), for messages. */
  amountText: string;
  currency: string;
  bookingDate: string | null;
  /** The other party: who paid (a credit) or who was paid (a debit). */
  partyName: string | null;
  partyIban: string | null;
  /** What the payer wrote: structured creditor references first, then the unstructured lines joined. */
  reasons: string[];
  /** The whole remittance information as one text, for the operator. */
  remittance: string;
  /** The payer's end-to-end id: for a debit Muntly made, the one its pain.001 gave. */
  endToEndId: string | null;
  /**
   * A credit that is a payout of Muntly's coming back (an R-transaction: the payee's bank returned
   * it): the ISO reason code (AC04 …) or the bank's own, and its additional text; null for any
   * other line. See `returnOf`.
   */
  returned: { reason: string | null; additional: string | null } | null;
  /**
   * Why the line may not be booked as any reason says, for the unmatched queue: a batched entry
   * whose payments do not add up to what the bank booked, or are in another currency
   * (`batch_mismatch`). Null: nothing wrong.
   */
  refusal: 'batch_mismatch' | null;
};

/** A camt.053 statement (Stmt) or a camt.054 notification (Ntfctn): one account's entries. */
export type Statement = { id: string | null; iban: string | null; lines: StatementLine[] };

/** The two messages read: the day's statement, and the notifications of the day. */
export type StatementKind = 'camt.053' | 'camt.054';
const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:(camt\.05[34])\.001\.(0[2-8])$/;
/** Where each message keeps its statements (the document's one child, then its repeated part). */
const BODY: Record<StatementKind, [string, string]> = {
  'camt.053': ['BkToCstmrStmt', 'Stmt'],
  'camt.054': ['BkToCstmrDbtCdtNtfctn', 'Ntfctn'],
};

/** Elements that may repeat: always read as lists, so one and several look alike. */
const REPEATING = new Set(['Stmt', 'Ntfctn', 'Ntry', 'NtryDtls', 'TxDtls', 'Ustrd', 'Strd', 'AddtlRmtInf']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  // Amounts and references stay text: "0010.50" is not a number to round.
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => REPEATING.has(name),
});

type Node = Record<string, unknown>;

const invalid = (detail: string) => new DomainError('statement_invalid', 'statement', detail);

/** The node at a path, or undefined (missing elements are normal: most are optional). */
function at(node: unknown, ...path: string[]): unknown {
  let current = node;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Node)[key];
  }
  return current;
}

/** An element's text: a plain string, or the text beside its attributes (`<Amt Ccy="EUR">1.00</Amt>`). */
function text(node: unknown): string | null {
  if (typeof node === 'string') return node.trim() || null;
  if (node && typeof node === 'object' && typeof (node as Node)['#text'] === 'string')
    return ((node as Node)['#text'] as string).trim() || null;
  return null;
}

const list = (node: unknown): unknown[] => (Array.isArray(node) ? node : node === undefined ? [] : [node]);

/**
 * The message (camt.053 or camt.054) and version (02…08) of a document, from its root element's
 * namespace; refuses anything else. The root is the first element once comments and processing
 * instructions are left out: a namespace written in a comment before a root of another namespace
 * names nothing.
 */
function messageOf(xml: string): { kind: StatementKind; version: string } {
  const markup = xml.replace(/<!--[\s\S]*?-->/g, '').replace(/<\?[\s\S]*?\?>/g, '');
  const root = /<(?:([\w.-]+):)?([\w.-]+)\b([^>]*)>/.exec(markup);
  const attribute =
    root && root[2] === 'Document'
      ? new RegExp(`\\bxmlns${root[1] ? `:${root[1]}` : ''}\\s*=\\s*["']([^"']*)["']`).exec(root[3]!)
      : null;
  const found = attribute ? NAMESPACE.exec(attribute[1]!) : null;
  if (!found)
    throw invalid(
      'Not a camt.053 bank statement or camt.054 notification (expected the namespace urn:iso:std:iso:20022:tech:xsd:camt.053.001.02 … .08 or camt.054.001.02 … .08).',
    );
  return { kind: found[1] as StatementKind, version: found[2]! };
}

/** A camt.053 statement or a camt.054 notification, already decoded to text (encoding.ts). */
export function readBankStatement(xml: string): { kind: StatementKind; version: string; statements: Statement[] } {
  // Statements carry no document type; one that declares entities is refused before parsing.
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw invalid('A bank statement has no document type declaration.');
  const wellFormed = XMLValidator.validate(xml);
  if (wellFormed !== true) throw invalid(`Not well-formed XML (line ${wellFormed.err.line}): ${wellFormed.err.msg}`);
  const { kind, version } = messageOf(xml);
  const [body, part] = BODY[kind];
  const statements = list(at(parser.parse(xml), 'Document', body, part));
  if (statements.length === 0)
    throw invalid(`The document holds no ${kind === 'camt.053' ? 'statement' : 'notification'} (${body}/${part}).`);
  return { kind, version, statements: statements.map(readStatement) };
}

/** The name the camt.053-only reader had; the same reader. */
export const readCamt053 = readBankStatement;

function readStatement(stmt: unknown): Statement {
  const iban = text(at(stmt, 'Acct', 'Id', 'IBAN'));
  const seen = new Map<string, number>();
  const lines = list(at(stmt, 'Ntry')).flatMap((entry) => {
    let ref = text(list(at(entry, 'AcctSvcrRef'))[0]) ?? text(at(entry, 'NtryRef'));
    if (!ref) {
      // No reference from the bank: the entry's content names it. Two identical entries in one
      // statement are two payments, told apart by their order.
      const hash = `sha256:${createHash('sha256')
        .update(JSON.stringify([iban, entry]))
        .digest('hex')
        .slice(0, 32)}`;
      const n = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, n);
      ref = n === 1 ? hash : `${hash}#${n}`;
    }
    return readEntry(entry, ref);
  });
  return { id: text(at(stmt, 'Id')), iban: iban ? iban.replace(/\s+/g, '').toUpperCase() : null, lines };
}

function readEntry(entry: unknown, ref: string): StatementLine[] {
  const indicator = text(at(entry, 'CdtDbtInd'));
  if (indicator !== 'CRDT' && indicator !== 'DBIT') throw invalid(`Entry ${ref}: CdtDbtInd must be CRDT or DBIT.`);
  const direction = indicator === 'CRDT' ? 'credit' : 'debit';
  const status = text(at(entry, 'Sts')) ?? text(at(entry, 'Sts', 'Cd'));
  const booked = status === 'BOOK';
  const bookingDate = text(at(entry, 'BookgDt', 'Dt')) ?? text(at(entry, 'BookgDt', 'DtTm'))?.slice(0, 10) ?? null;
  const transactions = list(at(entry, 'NtryDtls')).flatMap((details) => list(at(details, 'TxDtls')));
  const amountOf = (tx: unknown) => at(tx, 'Amt') ?? at(tx, 'AmtDtls', 'TxAmt', 'Amt');
  const line = (ownRef: string, amountNode: unknown, txs: unknown[], wholeEntry: boolean): StatementLine => {
    const amountText = text(amountNode) ?? '';
    const party = direction === 'credit' ? 'Dbtr' : 'Cdtr';
    const first = txs[0];
    const { reasons, remittance } = remittanceOf(entry, txs, wholeEntry);
    return {
      ref: ownRef,
      direction,
      booked,
      amount: decimalToMinor(amountText, 2),
      amountText,
      currency: (at(amountNode, '@Ccy') as string | undefined) ?? '',
      bookingDate,
      // camt.053.001.02: RltdPties/Dbtr/Nm; from .07 on the party is a choice: RltdPties/Dbtr/Pty/Nm.
      partyName: text(at(first, 'RltdPties', party, 'Nm')) ?? text(at(first, 'RltdPties', party, 'Pty', 'Nm')),
      partyIban:
        text(at(first, 'RltdPties', `${party}Acct`, 'Id', 'IBAN'))
          ?.replace(/\s+/g, '')
          .toUpperCase() ?? null,
      // Several payments under one amount: no single reason may claim the total.
      reasons: txs.length > 1 ? [] : reasons,
      remittance,
      endToEndId: text(at(first, 'Refs', 'EndToEndId')),
      returned: direction === 'credit' ? returnOf(entry, txs) : null,
      refusal: null,
    };
  };
  // A batch: one line per transaction, each with its own amount. Without them all (a bank that
  // reports only the total) the entry stays one line, which no reason matches whole.
  if (transactions.length > 1 && transactions.every((tx) => text(amountOf(tx)))) {
    const parts = transactions.map((tx, i) => line(`${ref}/${i + 1}`, amountOf(tx), [tx], false));
    // The bank booked the entry's amount: its payments must add up to it, in its currency, or none
    // of them is booked as its reason says (1.00 EUR booked must not fund 110 EUR of orders).
    const whole = line(ref, at(entry, 'Amt'), transactions, true);
    const sum = parts.reduce(
      (total, part) => (total === null || part.amount === null ? null : total + part.amount),
      0n as bigint | null,
    );
    if (sum !== whole.amount || parts.some((part) => part.currency !== whole.currency))
      return [{ ...whole, refusal: 'batch_mismatch' }];
    return parts;
  }
  return [line(ref, at(entry, 'Amt'), transactions, true)];
}

/**
 * What the payer wrote, as reasons to try in order and as one text for the operator:
 * - the structured creditor references (RmtInf/Strd/CdtrRefInf/Ref) first, each a reason;
 * - then the unstructured lines (RmtInf/Ustrd) joined, as one reason (a bank breaks a reason
 *   into lines of 140 characters wherever it likes);
 * - then where banks also put it: the structured part's additional lines
 *   (RmtInf/Strd/AddtlRmtInf, joined), the transaction's AddtlTxInf, and, when the line is the
 *   whole entry (not one payment of a batch), the entry's AddtlNtryInf — some banks write the
 *   payer's reason only there, or cut it into Ustrd and repeat it whole there.
 * The text is every distinct piece once (a bank that repeats the reason in AddtlNtryInf does not
 * show it twice).
 */
function remittanceOf(entry: unknown, txs: unknown[], wholeEntry: boolean): { reasons: string[]; remittance: string } {
  const texts = (nodes: unknown[]) => nodes.map(text).filter((r): r is string => !!r);
  const strd = txs.flatMap((tx) => list(at(tx, 'RmtInf', 'Strd')));
  const structured = texts(strd.map((s) => at(s, 'CdtrRefInf', 'Ref')));
  const unstructured = texts(txs.flatMap((tx) => list(at(tx, 'RmtInf', 'Ustrd')))).join(' ');
  const additional = texts(strd.flatMap((s) => list(at(s, 'AddtlRmtInf')))).join(' ');
  const further = [
    additional,
    ...texts(txs.map((tx) => at(tx, 'AddtlTxInf'))),
    ...(wholeEntry ? texts([at(entry, 'AddtlNtryInf')]) : []),
  ];
  const reasons: string[] = [];
  for (const reason of [...structured, unstructured, ...further])
    if (reason && !reasons.includes(reason)) reasons.push(reason);
  const squeeze = (s: string) => s.replace(/\s+/g, ' ').trim();
  const remittance = reasons.reduce(
    (all, piece) => (squeeze(all).includes(squeeze(piece)) ? all : `${all} ${piece}`.trim()),
    '',
  );
  // A payment of a batch that says nothing itself: the batch's text, for the operator only.
  return { reasons, remittance: remittance || (text(at(entry, 'AddtlNtryInf')) ?? '') };
}

/**
 * The return information of a credit, when it is one: TxDtls/RtrInf (the same element in .02 and
 * .08: Rsn/Cd is an ISO ExternalReturnReason code, Rsn/Prtry the bank's own, AddtlInf up to 105
 * characters each), or, from a bank that omits RtrInf, the bank transaction code of a returned
 * credit transfer (PMNT / ICDT or RCDT / RRTN, on the transaction or the entry). The original
 * end-to-end id is the transaction's Refs/EndToEndId, read with the line.
 */
function returnOf(entry: unknown, txs: unknown[]): StatementLine['returned'] {
  const info = txs.map((tx) => at(tx, 'RtrInf')).find((node) => node !== undefined);
  if (info !== undefined) {
    const additional = list(at(info, 'AddtlInf'))
      .map(text)
      .filter((t): t is string => !!t)
      .join(' ');
    return { reason: text(at(info, 'Rsn', 'Cd')) ?? text(at(info, 'Rsn', 'Prtry')), additional: additional || null };
  }
  const isReturnCode = (node: unknown) =>
    text(at(node, 'Domn', 'Cd')) === 'PMNT' &&
    ['ICDT', 'RCDT'].includes(text(at(node, 'Domn', 'Fmly', 'Cd')) ?? '') &&
    text(at(node, 'Domn', 'Fmly', 'SubFmlyCd')) === 'RRTN';
  if ([...txs.map((tx) => at(tx, 'BkTxCd')), at(entry, 'BkTxCd')].some(isReturnCode))
    return { reason: null, additional: text(at(entry, 'AddtlNtryInf')) };
  return null;
}
