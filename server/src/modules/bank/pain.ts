import { XMLParser } from 'fast-xml-parser';
import { Document } from 'sepa';
import { minorToDecimal } from '#domain/money';
import { sepaLatin } from '#domain/payee';
import type { PainVersion, PostalAddress } from '#domain/sepa';

/**
 * Writes a SEPA credit transfer initiation (ISO 20022 pain.001) with the `sepa` library: one
 * payment block from Muntly's account, one transaction per payout. Pure: the service decides
 * what goes in.
 *
 * Versions (BANK_PAIN_VERSION):
 * - `09` (default): pain.001.001.09, the 2019 message the EPC's implementation guidelines use
 *   since 2023 (EPC132-08) and the German banks (DK) take alone since November 2025. `sepa` writes
 *   it from the same Document with the format's name: BICFI for the BIC, ReqdExctnDt/Dt.
 * - `03`: pain.001.001.03, the 2009 message, for a bank that still asks for it.
 *
 * What `sepa` writes that the EPC's 2023+ guidelines do not take, and is fixed here after it
 * wrote the file: a postal address as Ctry + AdrLine only (an unstructured address, which the
 * EPC refuses from 22 November 2026 where the address is required), and none unless both lines
 * are given. The payer's address is written here: in .09 structured (StrtNm, BldgNb, PstCd,
 * TwnNm, Ctry, in the schema's order), in .03 as Ctry and the lines there are. Every file
 * is checked in server/test/bank-payouts-out.test.ts against the ISO 20022 schema of its version
 * and, for .09, against the EPC's own schema of its 2023 guidelines.
 */
export const painFormatOf = (version: PainVersion) => `pain.001.001.${version}` as const;

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
  version: PainVersion;
  /** At most 35 characters, unique per file ever sent to the bank. */
  messageId: string;
  created: Date;
  executionDate: Date;
  debtor: { name: string; iban: string; bic: string; address: PostalAddress | null };
  transfers: CreditTransfer[];
};

/**
 * SEPA's basic character set (EPC: a–z, A–Z, 0–9, / - ? : ( ) . , ' + and space), cut to a
 * field's length: another script is transliterated (domain/payee.ts), accents are dropped
 * (ü → u), anything else becomes a space, so no bank rejects or garbles a name.
 */
export function sepaText(value: string, max: number): string {
  return sepaLatin(value).slice(0, max).trim();
}

/** XML text escaped as the library escapes it, so that what it wrote can be found again. */
const escapeXml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/** The structured address (.09, PostalAddress24): the elements given, in the schema's order, within their lengths. */
function structuredAddress(address: PostalAddress): string {
  const fields: [string, string | undefined, number][] = [
    ['StrtNm', address.street, 70],
    ['BldgNb', address.building, 16],
    ['PstCd', address.postcode, 16],
    ['TwnNm', address.town, 35],
  ];
  const parts = fields
    .map(([tag, value, max]) => [tag, value ? sepaText(value, max) : ''] as const)
    .filter(([, value]) => value);
  parts.push(['Ctry', address.country.toUpperCase()]);
  return `<PstlAdr>${parts.map(([tag, value]) => `<${tag}>${escapeXml(value)}</${tag}>`).join('')}</PstlAdr>`;
}

/**
 * .03's address as its EPC guidelines allow it (Ctry and at most two AdrLine): street and
 * building; postcode and town. The library writes that form too, but only with both lines.
 */
function addressLines(address: PostalAddress): string {
  const lines = [
    [address.street, address.building],
    [address.postcode, address.town],
  ]
    .map((parts) => sepaText(parts.filter(Boolean).join(' '), 70))
    .filter(Boolean);
  return `<PstlAdr><Ctry>${address.country.toUpperCase()}</Ctry>${lines.map((line) => `<AdrLine>${escapeXml(line)}</AdrLine>`).join('')}</PstlAdr>`;
}

export function buildPain001(input: Pain001Input): string {
  const doc = new Document(painFormatOf(input.version));
  doc.grpHdr.id = input.messageId;
  doc.grpHdr.created = input.created;
  doc.grpHdr.initiatorName = sepaText(input.debtor.name, 70);
  const info = doc.createPaymentInfo();
  info.requestedExecutionDate = input.executionDate;
  info.debtorName = sepaText(input.debtor.name, 70);
  info.debtorIBAN = input.debtor.iban;
  info.debtorBIC = input.debtor.bic;
  const address = input.debtor.address;
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
  let xml = doc.toString();
  if (address) {
    // The library writes an address only unstructured, and only with two lines: the payer's goes
    // right after the debtor's name (Dbtr: Nm, PstlAdr, Id …), which it writes once, without line
    // breaks — structured in .09, as .03's guidelines allow in .03.
    const debtorName = `<Dbtr><Nm>${escapeXml(info.debtorName)}</Nm>`;
    if (xml.split(debtorName).length !== 2)
      throw new Error(`pain.001 ${input.messageId}: the debtor is not where the library writes it`);
    xml = xml.replace(
      debtorName,
      `${debtorName}${input.version === '09' ? structuredAddress(address) : addressLines(address)}`,
    );
  }
  if (!writtenAmountsMatch(xml, input.transfers))
    throw new Error(`pain.001 ${input.messageId}: the written amounts differ from the payouts`);
  return xml;
}

const reader = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  isArray: (name) => name === 'CdtTrfTxInf',
});

/** Reads the file back: every amount, and the control sum, as exactly the cents asked for. */
function writtenAmountsMatch(xml: string, transfers: CreditTransfer[]): boolean {
  const root = reader.parse(xml).Document.CstmrCdtTrfInitn;
  const written = (root.PmtInf.CdtTrfTxInf as { Amt: { InstdAmt: { '#text': string } } }[]).map(
    (tx) => tx.Amt.InstdAmt['#text'],
  );
  const total = transfers.reduce((sum, t) => sum + t.amount, 0n);
  return (
    written.length === transfers.length &&
    written.every((amount, i) => amount === minorToDecimal(transfers[i]!.amount, 2)) &&
    root.GrpHdr.CtrlSum === minorToDecimal(total, 2) &&
    root.PmtInf.CtrlSum === minorToDecimal(total, 2)
  );
}
