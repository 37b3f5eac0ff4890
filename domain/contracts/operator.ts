import { z } from 'zod';

/** GET /api/operator: who operates Muntly (imprint, footer, terms, privacy policy), from OPERATOR_*. */
const text = z.string().min(1);
export const operatorResponse = z.discriminatedUnion('sample', [
  z
    .object({
      sample: z.literal(false),
      name: text.describe('The legal name of the company that operates Muntly'),
      address: text.describe('Its address for service'),
      representatives: text.optional().describe('Who represents it (managing directors)'),
      email: text,
      phone: text.optional(),
      registration: text.optional().describe('Commercial register and number'),
      vatId: text.optional(),
      supervisor: text.optional().describe('Supervisory authority and register entry'),
    })
    .describe('The configured operator'),
  z
    .object({ sample: z.literal(true) })
    .describe('No operator configured (local mode): the site shows marked sample values'),
]);
export type OperatorResponse = z.infer<typeof operatorResponse>;
