import fp from 'fastify-plugin';
import { RateLimited } from './errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * Server-sent events, one way for every stream (order status, faucet rounds): the headers, the
 * reconnection delay, a heartbeat, a cap per client, a maximum lifetime, and closing on shutdown.
 *
 *   const streams = app.eventStreams();            // once per route, when the plugin registers
 *   const stream = streams.start(request, reply);  // 429 try_again_soon past the client's cap
 *   stream.send('order', view);
 *   stream.onClose(() => clearInterval(timer));    // the client left, the lifetime ran out, or the server stops
 */

/** Open streams one client address may hold, per kind of stream and replica (tabs, or people behind one NAT). */
export const STREAMS_PER_CLIENT = 20;
/**
 * Open streams on one topic (an order), from all clients together, per replica: the holder of an
 * order's email and reference watches it from a few tabs and devices, never from hundreds.
 */
export const STREAMS_PER_TOPIC = 5;
/**
 * The server ends a stream after at most this long (each between 90 and 100 % of it, so streams
 * opened together do not all come back together). The browser's EventSource reconnects by itself,
 * which also spreads long-lived clients over the replicas after a deploy.
 */
export const STREAM_MAX_LIFETIME_MS = 15 * 60_000;
/** A silent stream gets a comment line about this often: proxies and load balancers close silent connections. */
export const STREAM_HEARTBEAT_MS = 15_000;
/** Sent as `retry:`: how long the browser waits before reconnecting to a stream that ended. */
export const STREAM_RETRY_MS = 2000;

export type StreamOptions = {
  perClient?: number;
  perTopic?: number;
  maxLifetimeMs?: number;
  heartbeatMs?: number;
  retryMs?: number;
};

export type EventStream = {
  /** One event: `event: <name>` with `data` as JSON. Nothing happens once the stream is closed. */
  send(event: string, data: unknown): void;
  /** Ends the stream from the server's side. */
  close(): void;
  /** Runs once when the stream ends, whoever ended it (the client, the lifetime, `close`, shutdown). */
  onClose(listener: () => void): void;
  readonly closed: boolean;
};

class Stream implements EventStream {
  closed = false;
  lastWrite = Date.now();
  private readonly listeners: (() => void)[] = [];

  constructor(readonly raw: ServerResponse) {}

  write(text: string) {
    if (this.closed) return;
    this.raw.write(text);
    this.lastWrite = Date.now();
  }

  send(event: string, data: unknown) {
    this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  close() {
    if (!this.closed) this.raw.end();
  }

  onClose(listener: () => void) {
    if (this.closed) listener();
    else this.listeners.push(listener);
  }

  ended() {
    this.closed = true;
    for (const listener of this.listeners.splice(0)) listener();
  }
}

/** Adds `delta` to a counter of open streams; a counter back at zero leaves the map (it never grows with closed streams). */
function count(counts: Map<string, number>, key: string, delta: number) {
  const value = (counts.get(key) ?? 0) + delta;
  if (value > 0) counts.set(key, value);
  else counts.delete(key);
}

/** The open streams of one route on this replica. */
export class EventStreams {
  private readonly streams = new Set<Stream>();
  private readonly perClient = new Map<string, number>();
  private readonly perTopic = new Map<string, number>();
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly options: Required<StreamOptions>;

  constructor(options: StreamOptions = {}) {
    this.options = {
      perClient: options.perClient ?? STREAMS_PER_CLIENT,
      perTopic: options.perTopic ?? STREAMS_PER_TOPIC,
      maxLifetimeMs: options.maxLifetimeMs ?? STREAM_MAX_LIFETIME_MS,
      heartbeatMs: options.heartbeatMs ?? STREAM_HEARTBEAT_MS,
      retryMs: options.retryMs ?? STREAM_RETRY_MS,
    };
  }

  get size(): number {
    return this.streams.size;
  }

  /** False when the client, or the topic, already holds its share: an open socket costs memory and a file descriptor. */
  accepts(client: string, topic?: string): boolean {
    if ((this.perClient.get(client) ?? 0) >= this.options.perClient) return false;
    return topic === undefined || (this.perTopic.get(topic) ?? 0) < this.options.perTopic;
  }

  /**
   * Answers the request with a text/event-stream that outlives the handler. Throws RateLimited
   * (429 `try_again_soon`, an ordinary error answer) when the client (`request.ip`) or the topic
   * (what the stream watches, e.g. one order) holds its share.
   */
  start(request: FastifyRequest, reply: FastifyReply, topic?: string): EventStream {
    const client = request.ip;
    if (!this.accepts(client, topic)) throw new RateLimited();
    // Fastify hands the socket over: hooks that run on send (compression) must not buffer the
    // stream, so the headers set so far (security headers, CORS) are copied by hand.
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no', // nginx and similar proxies would otherwise buffer the stream
    });
    const stream = new Stream(reply.raw);
    this.streams.add(stream);
    count(this.perClient, client, 1);
    if (topic !== undefined) count(this.perTopic, topic, 1);
    const { maxLifetimeMs } = this.options;
    const lifetime = setTimeout(() => stream.close(), maxLifetimeMs * (0.9 + Math.random() * 0.1));
    lifetime.unref();
    reply.raw.once('close', () => {
      clearTimeout(lifetime);
      this.streams.delete(stream);
      count(this.perClient, client, -1);
      if (topic !== undefined) count(this.perTopic, topic, -1);
      if (this.streams.size === 0) this.stopHeartbeat();
      stream.ended();
    });
    stream.write(`retry: ${this.options.retryMs}\n\n`);
    this.startHeartbeat();
    return stream;
  }

  /** One event to every open stream. */
  broadcast(event: string, data: unknown): void {
    const frame = `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const stream of this.streams) stream.write(frame);
  }

  /** Ends every stream (shutdown: open streams would keep the server waiting). */
  closeAll(): void {
    for (const stream of this.streams) stream.close();
  }

  private startHeartbeat() {
    if (this.heartbeat) return;
    const { heartbeatMs } = this.options;
    // One timer for all: a stream silent for half a period or more gets a comment line, so none
    // stays silent longer than one and a half periods.
    this.heartbeat = setInterval(() => {
      const quietSince = Date.now() - heartbeatMs / 2;
      for (const stream of this.streams) if (stream.lastWrite <= quietSince) stream.write(': keep-alive\n\n');
    }, heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat() {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A new set of event streams (one per route), with the app's defaults, closed when the app closes. */
    eventStreams: (options?: StreamOptions) => EventStreams;
  }
}

/** Registers `app.eventStreams`; `defaults` come from the configuration (the lifetime) and tests. */
export const ssePlugin = fp<StreamOptions>(
  async (app, defaults) => {
    const all: EventStreams[] = [];
    app.decorate('eventStreams', (options: StreamOptions = {}) => {
      const streams = new EventStreams({ ...defaults, ...options });
      all.push(streams);
      return streams;
    });
    // Before the server waits for requests to finish: an open stream never would.
    app.addHook('preClose', async () => {
      for (const streams of all) streams.closeAll();
    });
  },
  { name: 'sse' },
);
