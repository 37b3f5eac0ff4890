import { currentVersion, currentView } from './views';
import type { Db } from '../../db/client';
import type { EventStream, EventStreams } from '../../sse';
import type { RatesAdapter } from '../rates/service';
import type { FastifyBaseLogger } from 'fastify';

/**
 * Live updates of the current round (GET /api/faucet/events, server-sent events through
 * `server/src/sse.ts`, which also caps the streams per client, ends old ones and closes them all
 * on shutdown).
 *
 * Any replica may hold a browser's stream while another replica's ticker moves the round, so each
 * replica watches the database itself: while it has at least one listener it reads a small
 * fingerprint of the round once per interval (one query per replica, however many listeners) and
 * pushes the full round to every listener when the fingerprint changes. An entry accepted by this
 * replica pushes at once (`poke`).
 */
export class FaucetEvents {
  private timer: NodeJS.Timeout | undefined;
  private version = '';
  private polling: Promise<void> | undefined;

  constructor(
    readonly streams: EventStreams,
    private readonly db: Db,
    private readonly rates: RatesAdapter,
    private readonly pollMs: number,
    private readonly log?: FastifyBaseLogger,
  ) {}

  get listeners(): number {
    return this.streams.size;
  }

  /** Adds a listener (a stream just started) and sends it the round now. */
  async add(stream: EventStream): Promise<void> {
    stream.onClose(() => {
      if (this.streams.size === 0) this.stopPolling();
    });
    stream.send('round', { round: await currentView(this.db, this.rates) });
    if (!this.timer) {
      this.version = await currentVersion(this.db);
      this.timer = setInterval(() => void this.poll(), this.pollMs);
      this.timer.unref();
    }
  }

  /** Something changed here (an entry, an operator action): push without waiting for the interval. */
  poke(): void {
    if (this.streams.size > 0) void this.poll(true);
  }

  /** Stops watching the round (shutdown; the streams themselves are closed by the SSE plugin). */
  close(): void {
    this.stopPolling();
  }

  private stopPolling() {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private poll(force = false): Promise<void> {
    this.polling ??= this.check(force).finally(() => {
      this.polling = undefined;
    });
    return this.polling;
  }

  private async check(force: boolean) {
    if (this.streams.size === 0) return this.stopPolling(); // the last listener left while the polling started
    try {
      const version = await currentVersion(this.db);
      if (version !== this.version || force) {
        this.version = version;
        this.streams.broadcast('round', { round: await currentView(this.db, this.rates) });
      }
    } catch (error) {
      this.log?.warn({ err: error }, 'faucet events: could not read the round');
    }
  }
}
