import { XMLParser } from 'fast-xml-parser';
import { Document } from 'sepa';
import { minorToDecimal } from '../../../../domain/money';

/**
 * Writes a SEPA credit transfer initiation (ISO 20022 pain.001.001.03) with the `sepa` library:
 * one payment block from Muntly's account, one transaction per payout. Pure: the service decides
 * what goes in.
 *
 * Why .001.03: it is the version every SEPA bank accepts for uploads (the EPC's implementation
 * guidelines of 2009–2023, the German DK's "pain.001.001.03" and its equivalents elsewhere),
 * it belongs to the same ISO release as the camt.053.001.02 statements Muntly reads, and `sepa`
 * writes it complete and valid against the official schema (checked in server/test/bank-files.test.ts).
 * `sepa` writes .001.09 too; a bank that asks for it gets it by changing PAIN_FORMAT.
 */
export const PAIN_FORMAT = 'pain.001.001.03';

export type CreditTransfer = {
  /** At most 35 characters; the bank reports it back on the statement's debit entry. */
  endToEndId: string;
  /** EUR cents. */
  amount: bigint;
  creditorName: string;
  creditorIban: string;
  remittance: string;
};

export type Pain001Input = {
  /** At most 35 characters, unique per file ever sent to the bank. */
  messageId: string;
  created: Date;
  executionDate: Date;
  debtor: { name: string; iban: string; bic: string };
  transfers: CreditTransfer[];
};

/**
 * SEPA's basic character set (EPC: a–z, A–Z, 0–9, / - ? : ( ) . , ' + and space): accents are
 * dropped (ü → u), anything else becomes a space, so no bank rejects or garbles a name.
 */
export function sepaText(value: string, max: number): string {
  return value
    .replace(/ß/g, 'ss')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

export function buildPain001(input: Pain001Input): string {
  const doc = new Document(PAIN_FORMAT);
  doc.grpHdr.id = input.messageId;
  doc.grpHdr.created = input.created;
  doc.grpHdr.initiatorName = sepaText(input.debtor.name, 70);
  const info = doc.createPaymentInfo();
  info.requestedExecutionDate = input.executionDate;
  info.debtorName = sepaText(input.debtor.name, 70);
  info.debtorIBAN = input.debtor.iban;
  info.debtorBIC = input.debtor.bic;
  doc.addPaymentInfo(info);
  for (const transfer of input.transfers) {
    const tx = info.createTransaction();
    tx.end2endId = transfer.endToEndId;
    // The library takes a number; a cent amount below 2^53 / 100 converts exactly and is written
    // back with two decimals. writtenAmountsMatch below proves it for every file.
    tx.amount = Number(minorToDecimal(transfer.amount, 2));
    tx.creditorName = sepaText(transfer.creditorName, 70) || 'NOTPROVIDED';
    tx.creditorIBAN = transfer.creditorIban;
    tx.remittanceInfo = sepaText(transfer.remittance, 140);
    info.addTransaction(tx);
  }
  const xml = doc.toString();
  if (!writtenAmountsMatch(xml, input.transfers)) throw new Error(`pain.001 ${input.messageId}: the written amounts differ from the payouts`);
  return xml;
}

const reader = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (name) => name === 'CdtTrfTxInf' });

/** Reads the file back: every amount, and the control sum, as exactly the cents asked for. */
function writtenAmountsMatch(xml: string, transfers: CreditTransfer[]): boolean {
  const root = reader.parse(xml).Document.CstmrCdtTrfInitn;
  const written = (root.PmtInf.CdtTrfTxInf as { Amt: { InstdAmt: { '#text': string } } }[]).map((tx) => tx.Amt.InstdAmt['#text']);
  const total = transfers.reduce((sum, t) => sum + t.amount, 0n);
  return (
    written.length === transfers.length &&
    written.every((amount, i) => amount === minorToDecimal(transfers[i]!.amount, 2)) &&
    root.GrpHdr.CtrlSum === minorToDecimal(total, 2) &&
    root.PmtInf.CtrlSum === minorToDecimal(total, 2)
  );
}
