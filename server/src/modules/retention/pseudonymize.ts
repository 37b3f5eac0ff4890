import { XMLBuilder, XMLParser } from 'fast-xml-parser';

/** Written in place of a creditor's name and IBAN in a pain.001 file: still valid against the schema, reaching no one. */
export const ERASED_NAME = 'ERASED';
export const ERASED_IBAN = 'XX00ERASED';

type Node = Record<string, unknown>;
const OPTIONS = {
  preserveOrder: true,
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
} as const;

/**
 * A pain.001 file with every creditor's (and ultimate creditor's) name replaced, their postal
 * address and private identification removed, and their IBAN replaced; the debtor (Muntly), the
 * amounts, the control sum, the end-to-end ids and the payment reasons (our order references)
 * stay, so the file still adds up and still validates against the ISO 20022 schema.
 */
export function pseudonymizePain(xml: string): string {
  const tree = new XMLParser(OPTIONS).parse(xml) as Node[];
  const walk = (nodes: Node[], inCreditor: boolean, inCreditorAccount: boolean): Node[] =>
    nodes.flatMap((node) => {
      const tag = Object.keys(node).find((key) => key !== ':@');
      if (!tag || tag === '#text') return [node];
      const children = node[tag] as Node[];
      if (inCreditor && (tag === 'PstlAdr' || tag === 'Id' || tag === 'CtctDtls')) return [];
      if (inCreditor && tag === 'Nm') return [{ ...node, [tag]: [{ '#text': ERASED_NAME }] }];
      if (inCreditorAccount && tag === 'IBAN') return [{ ...node, [tag]: [{ '#text': ERASED_IBAN }] }];
      const creditor = tag === 'Cdtr' || tag === 'UltmtCdtr';
      return [{ ...node, [tag]: walk(children, inCreditor || creditor, inCreditorAccount || tag === 'CdtrAcct') }];
    });
  return new XMLBuilder({ ...OPTIONS, suppressEmptyNode: false }).build(walk(tree, false, false)) as string;
}
