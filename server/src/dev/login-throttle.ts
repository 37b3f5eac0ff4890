/**
 * Failed logins at the local identity provider, counted per client address and per client
 * address and email — never per email alone, so that a stranger's failures cannot lock the
 * account's owner out: the owner's own connection has its own counters.
 */

/** How long failures are remembered, and how long a throttled client waits: 15 minutes. */
export const LOGIN_FAILURE_WINDOW_MS = 15 * 60_000;
/** Wrong passwords for one email from one client address within the window. */
export const LOGIN_FAILURES_PER_CLIENT_AND_EMAIL = 10;
/** Wrong passwords from one client address within the window, whatever the emails (spraying). */
export const LOGIN_FAILURES_PER_CLIENT = 30;
/** Entries each counter keeps at most; past it the oldest is forgotten (memory stays bounded). */
export const LOGIN_FAILURE_MEMORY_MAX = 10_000;

type Entry = { count: number; since: number };

/**
 * Failures per key in a fixed window from the first failure. A Map iterates in insertion order,
 * and an entry is (re)inserted when its window starts, so the first entries are the oldest: those
 * are the expired ones to sweep and, when the map is full of live ones, the ones to forget.
 */
export class FailureCounter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limit: number,
    private readonly windowMs = LOGIN_FAILURE_WINDOW_MS,
    private readonly maxEntries = LOGIN_FAILURE_MEMORY_MAX,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** Milliseconds until the key may try again; 0 when it is not throttled. */
  waitMs(key: string): number {
    const entry = this.live(key);
    if (!entry || entry.count < this.limit) return 0;
    return entry.since + this.windowMs - this.now();
  }

  record(key: string): void {
    const entry = this.live(key);
    if (entry) {
      entry.count += 1;
      return;
    }
    this.sweep();
    while (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { count: 1, since: this.now() });
  }

  forget(key: string): void {
    this.entries.delete(key);
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && this.now() - entry.since >= this.windowMs) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Drops expired entries from the oldest end, stopping at the first live one. */
  private sweep(): void {
    for (const [key, entry] of this.entries) {
      if (this.now() - entry.since < this.windowMs) return;
      this.entries.delete(key);
    }
  }
}

/**
 * The provider's policy: a client address is throttled after too many failures of its own,
 * for one email or across all of them. Addresses come from the socket (the provider runs
 * without a proxy in front), with IPv4-mapped IPv6 addresses written as IPv4.
 */
export class LoginThrottle {
  readonly perClient: FailureCounter;
  readonly perClientAndEmail: FailureCounter;

  constructor(
    options: {
      perClient?: number;
      perClientAndEmail?: number;
      windowMs?: number;
      maxEntries?: number;
      now?: () => number;
    } = {},
  ) {
    const { windowMs, maxEntries, now } = options;
    this.perClient = new FailureCounter(options.perClient ?? LOGIN_FAILURES_PER_CLIENT, windowMs, maxEntries, now);
    this.perClientAndEmail = new FailureCounter(
      options.perClientAndEmail ?? LOGIN_FAILURES_PER_CLIENT_AND_EMAIL,
      windowMs,
      maxEntries,
      now,
    );
  }

  /** Milliseconds this client must wait before trying this email again; 0 when it may try now. */
  waitMs(client: string, email: string): number {
    return Math.max(this.perClient.waitMs(clientKey(client)), this.perClientAndEmail.waitMs(pairKey(client, email)));
  }

  recordFailure(client: string, email: string): void {
    this.perClient.record(clientKey(client));
    this.perClientAndEmail.record(pairKey(client, email));
  }

  /**
   * A successful login clears this client's failures for the email; its count across emails
   * stays, or a sprayer could reset it by logging into an account of its own now and then.
   */
  recordSuccess(client: string, email: string): void {
    this.perClientAndEmail.forget(pairKey(client, email));
  }
}

const clientKey = (client: string) => client.replace(/^::ffff:/, '');
const pairKey = (client: string, email: string) => `${clientKey(client)} ${email}`;

/**
 * One-time passwords (issue 34), counted per account — never per login interaction or client
 * address, which a guesser makes as many of as he likes once he has the password — and kept in the
 * database (idp_users.otp_failures), which every replica shares. A code space of a million falls
 * to a few thousand guesses; these limits allow a handful per quarter hour.
 */
export const OTP_FAILURE_WINDOW_MS = 15 * 60_000;
/** Codes an account may get wrong within the window; the next attempts wait for its end (429). */
export const OTP_FAILURES_BEFORE_WAIT = 5;
/** Attempts (the refused ones too) after which the password step of the account waits as well. */
export const OTP_FAILURES_BEFORE_PASSWORD_WAIT = 10;

export type OtpFailures = { failures: number; since: Date | null };

/** Milliseconds until the account may try a code again, given its count with this attempt; 0 when it may now. */
export function otpWaitMs(state: OtpFailures, now = Date.now()): number {
  if (!state.since || state.failures <= OTP_FAILURES_BEFORE_WAIT) return 0;
  return Math.max(0, state.since.getTime() + OTP_FAILURE_WINDOW_MS - now);
}

/** Milliseconds until the account's password step is answered again; 0 when it is. */
export function passwordWaitMs(state: OtpFailures, now = Date.now()): number {
  if (!state.since || state.failures < OTP_FAILURES_BEFORE_PASSWORD_WAIT) return 0;
  return Math.max(0, state.since.getTime() + OTP_FAILURE_WINDOW_MS - now);
}
