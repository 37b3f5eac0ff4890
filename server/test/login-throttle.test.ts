/**
 * @jest-environment node
 */
import {
  FailureCounter,
  LOGIN_FAILURE_MEMORY_MAX,
  LOGIN_FAILURE_WINDOW_MS,
  LoginThrottle,
} from '../src/dev/login-throttle';

/**
 * The provider's memory of failed logins: whatever emails a stranger submits, it holds a bounded
 * number of entries, forgets them when their window is over, and throttles clients, not accounts.
 */
describe('failed-login memory', () => {
  it('stays bounded however many different emails fail, forgetting the oldest first', () => {
    const throttle = new LoginThrottle({ perClient: 1_000_000 });
    for (let i = 0; i < LOGIN_FAILURE_MEMORY_MAX * 3; i++)
      throttle.recordFailure('203.0.113.7', `someone-${i}@example.test`);
    expect(throttle.perClientAndEmail.size).toBe(LOGIN_FAILURE_MEMORY_MAX);
    expect(throttle.perClient.size).toBe(1);

    const counter = new FailureCounter(1, LOGIN_FAILURE_WINDOW_MS, 3);
    for (const key of ['a', 'b', 'c', 'd']) counter.record(key);
    expect(counter.size).toBe(3);
    expect(counter.waitMs('a')).toBe(0); // the oldest, forgotten
    expect(counter.waitMs('d')).toBeGreaterThan(0);
  });

  it('forgets failures when their window is over, and the client may try again', () => {
    let now = 1_000_000;
    const throttle = new LoginThrottle({ now: () => now });
    for (let i = 0; i < 10; i++) throttle.recordFailure('203.0.113.7', 'owner@example.test');
    expect(throttle.waitMs('203.0.113.7', 'owner@example.test')).toBe(LOGIN_FAILURE_WINDOW_MS);
    now += LOGIN_FAILURE_WINDOW_MS - 60_000;
    expect(throttle.waitMs('203.0.113.7', 'owner@example.test')).toBe(60_000);
    now += 60_000;
    expect(throttle.waitMs('203.0.113.7', 'owner@example.test')).toBe(0);

    // Expired entries are dropped as new ones arrive, not kept until the map is full.
    throttle.recordFailure('198.51.100.1', 'other@example.test');
    expect(throttle.perClientAndEmail.size).toBe(1);
    expect(throttle.perClient.size).toBe(1);
  });

  it('throttles a client address, never the account for everyone', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 10; i++) throttle.recordFailure('::ffff:203.0.113.7', 'owner@example.test');
    expect(throttle.waitMs('203.0.113.7', 'owner@example.test')).toBeGreaterThan(0);
    expect(throttle.waitMs('198.51.100.1', 'owner@example.test')).toBe(0);
  });
});
