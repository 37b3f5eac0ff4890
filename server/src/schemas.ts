import { errorBodySchema } from '#domain/contracts/common';

/** The error body of docs/decisions/0003 (domain/contracts/common.ts), for the OpenAPI document. */
export const errorSchema = errorBodySchema;

export function errorResponses<S extends number>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((status) => [status, errorSchema])) as Record<S, typeof errorSchema>;
}
