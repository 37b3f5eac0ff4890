import { z } from 'zod';

/** GET /api/health (liveness) and GET /api/ready (database reachable, migrations done). */
export const healthResponse = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof healthResponse>;

export const readyResponse = z.object({ status: z.literal('ready'), database: z.string() });
export type Ready = z.infer<typeof readyResponse>;
