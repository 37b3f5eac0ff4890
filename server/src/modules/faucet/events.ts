import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { RatesAdapter } from '../rates/service';
import { currentVersion, currentView } from './service';

/** Open streams one client address may hold on a replica (tabs, or players behind one NAT). */
export const STREAMS_PER_ADDRESS = 20;

/**
 * Live updates of the current round (GET /api/faucet/events, server-sent events).
 *
 * Any replica may hold a browser's stream while another replica's ticker moves the round, so each
 * replica watches the database itself: while it has at least one listener it reads a small
 * fingerprint of the round once per interval (one query per replica, however many listeners) and
 * pushes the full round to every listener when the fingerprint changes. An entry accepted by this
 * replica pushes at once (`poke`).
 */
export class FaucetEvents {
  private readonly clients = new Set<ServerResponse>();
  private readonly perAddress = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private version = '';
  private polling: Promise<void> | undefined;
  private sinceHeartbeat = 0;

  constructor(
    private readonly db: Db,
    private readonly rates: RatesAdapter,
    private readonly pollMs: number,
    private readonly log?: FastifyBaseLogger,
  ) {}

  get listeners(): number {
    return this.clients.size;
  }

  /** False when this address already holds its share of streams: an open socket costs memory and a file descriptor. */
  accepts(address: string): boolean {
    return (this.perAddress.get(address) ?? 0) < STREAMS_PER_ADDRESS;
  }

  /** Adds a listener (the response is already a text/event-stream) and sends it the round now. */
  async add(raw: ServerResponse, address: string): Promise<void> {
    this.clients.add(raw);
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    raw.on('close', () => {
      this.clients.delete(raw);
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
      if (this.clients.size === 0) this.stopPolling();
    });
    // Tells the browser how soon to reconnect after a dropped connection (a restart, a deploy).
    raw.write('retry: 2000\n\n');
    const view = await currentView(this.db, this.rates);
    raw.write(frame(view));
    if (!this.timer) {
      this.version = await currentVersion(this.db);
      this.timer = setInterval(() => void this.poll(), this.pollMs);
      this.timer.unref();
    }
  }

  /** Something changed here (an entry, an operator action): push without waiting for the interval. */
  poke(): void {
    if (this.clients.size > 0) void this.poll(true);
  }

  close(): void {
    this.stopPolling();
    for (const raw of this.clients) raw.end();
    this.clients.clear();
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
    try {
      const version = await currentVersion(this.db);
      if (version !== this.version || force) {
        this.version = version;
        const data = frame(await currentView(this.db, this.rates));
        for (const raw of this.clients) raw.write(data);
        this.sinceHeartbeat = 0;
      } else if ((this.sinceHeartbeat += this.pollMs) >= 15_000) {
        // A comment line keeps proxies and load balancers from closing an idle stream.
        for (const raw of this.clients) raw.write(': keep-alive\n\n');
        this.sinceHeartbeat = 0;
      }
    } catch (error) {
      this.log?.warn({ err: error }, 'faucet events: could not read the round');
    }
  }
}

const frame = (view: unknown) => `event: round\ndata: ${JSON.stringify({ round: view })}\n\n`;
