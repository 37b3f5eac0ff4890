import fc from 'fast-check';
import { CODE_DAY_MS, CODE_RESEND_AFTER_MS, CODES_PER_DAY, nextCodeAllowedAt } from '../identity';

const NOW = Date.UTC(2026, 10, 23, 12);

describe('nextCodeAllowedAt: a new verification code at most once a minute and five times a day', () => {
  it('lets the first code through, then waits a minute', () => {
    expect(nextCodeAllowedAt([], NOW)).toBeNull();
    expect(nextCodeAllowedAt([NOW - 10_000], NOW)).toBe(NOW + 50_000);
    expect(nextCodeAllowedAt([NOW - CODE_RESEND_AFTER_MS], NOW)).toBeNull();
    expect(nextCodeAllowedAt([NOW - 10_000], NOW, 0)).toBeNull(); // per recipient: only the daily cap
  });

  it('waits for the oldest of the last five to leave the day', () => {
    const hours = [20, 15, 10, 5, 1].map((h) => NOW - h * 3_600_000);
    expect(nextCodeAllowedAt(hours, NOW)).toBe(hours[0]! + CODE_DAY_MS);
    expect(nextCodeAllowedAt([NOW - 25 * 3_600_000, ...hours.slice(1)], NOW)).toBeNull();
  });

  it('never allows more than five in any day, nor two within a minute, whatever the order of requests', () => {
    // Requests at random moments over three days; each is granted only when the rule says so.
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 * CODE_DAY_MS }), { maxLength: 200 }), (moments) => {
        const granted: number[] = [];
        for (const now of [...moments].sort((a, b) => a - b))
          if (nextCodeAllowedAt(granted, now) === null) granted.push(now);
        return granted.every((t, i) => {
          const inDay = granted.filter((u) => u > t - CODE_DAY_MS && u <= t).length;
          return inDay <= CODES_PER_DAY && (i === 0 || t - granted[i - 1]! >= CODE_RESEND_AFTER_MS);
        });
      }),
    );
  });
});
