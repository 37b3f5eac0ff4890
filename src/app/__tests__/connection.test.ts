import { prefetchAllowed } from '../connection';

describe('prefetching on slow connections', () => {
  it('prefetches on a fast connection, and where the browser does not say', () => {
    expect(prefetchAllowed({ effectiveType: '4g', saveData: false })).toBe(true);
    expect(prefetchAllowed({ effectiveType: '3g' })).toBe(true);
    expect(prefetchAllowed({})).toBe(true);
    expect(prefetchAllowed(undefined)).toBe(true);
  });

  it('fetches nothing ahead on 2g or slow-2g', () => {
    expect(prefetchAllowed({ effectiveType: '2g' })).toBe(false);
    expect(prefetchAllowed({ effectiveType: 'slow-2g', saveData: false })).toBe(false);
  });

  it('fetches nothing ahead in data-saver mode, whatever the speed', () => {
    expect(prefetchAllowed({ effectiveType: '4g', saveData: true })).toBe(false);
    expect(prefetchAllowed({ saveData: true })).toBe(false);
  });
});
