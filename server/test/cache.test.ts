/**
 * @jest-environment node
 */
import { TtlCache } from '../src/cache';

describe('TtlCache', () => {
  it('forgets entries when their time is up', () => {
    let now = 1000;
    const cache = new TtlCache<string>(10, () => now);
    cache.set('a', 'value', 500);
    expect(cache.get('a')).toBe('value');
    now = 1499;
    expect(cache.get('a')).toBe('value');
    now = 1500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('keeps at most its size, dropping the oldest first', () => {
    const cache = new TtlCache<number>(2);
    cache.set('a', 1, 60_000);
    cache.set('b', 2, 60_000);
    cache.set('c', 3, 60_000);
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('never stores an already expired value', () => {
    const cache = new TtlCache<number>(2);
    cache.set('a', 1, 0);
    expect(cache.get('a')).toBeUndefined();
  });
});
