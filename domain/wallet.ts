/**
 * A wallet send's status, the one source of its type, the API's zod enum and the database
 * column with its check constraint: awaiting_code (the emailed code confirms it) -> processing
 * (booked, being paid out; an internal send skips it) -> completed, or failed.
 */
export const SEND_STATUSES = ['awaiting_code', 'processing', 'completed', 'failed'] as const;
export type SendStatus = (typeof SEND_STATUSES)[number];
