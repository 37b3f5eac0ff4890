import type { FastifyInstance } from 'fastify';

/**
 * Runs `work` every `intervalMs` from now on (the app is built with its database open). A run never overlaps the previous one in
 * this process (other replicas run their own: SKIP LOCKED hands each item to one of them), and
 * closing the app lets the current run finish before the database closes.
 */
export function repeat(app: FastifyInstance, label: string, intervalMs: number, work: () => Promise<unknown>): void {
  if (intervalMs <= 0) return;
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = work()
      .catch((error: unknown) => app.log.warn({ err: error }, `${label} failed; retrying on the next run`))
      .finally(() => (running = null));
  }, intervalMs);
  timer.unref();
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}
