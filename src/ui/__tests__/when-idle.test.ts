import { queueWhenIdle, whenIdle } from '../when-idle';

/**
 * Code fetched ahead of need (the order confirmation, the address rules) waits until the page
 * has loaded and the browser is idle, so a phone answers the first tap sooner; a form that goes
 * away before then never fetches it.
 */
describe('whenIdle', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('waits for the page to finish loading, then for an idle moment', () => {
    const readyState = jest.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const work = jest.fn();
    whenIdle(work);
    jest.advanceTimersByTime(10_000);
    expect(work).not.toHaveBeenCalled();
    readyState.mockReturnValue('complete');
    window.dispatchEvent(new Event('load'));
    expect(work).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1_000);
    expect(work).toHaveBeenCalledTimes(1);
    readyState.mockRestore();
  });

  it('does nothing once cancelled, before or after the load event', () => {
    const work = jest.fn();
    const cancel = whenIdle(work);
    cancel();
    window.dispatchEvent(new Event('load'));
    jest.advanceTimersByTime(10_000);
    expect(work).not.toHaveBeenCalled();
  });

  it('uses the browser idle callback where there is one, with a deadline', () => {
    const requestIdleCallback = jest.fn((run: () => void) => (run(), 1));
    Object.assign(window, { requestIdleCallback, cancelIdleCallback: jest.fn() });
    const work = jest.fn();
    whenIdle(work, 3000);
    expect(requestIdleCallback).toHaveBeenCalledWith(expect.any(Function), { timeout: 3000 });
    expect(work).toHaveBeenCalledTimes(1);
    delete (window as Partial<Window>).requestIdleCallback;
  });
});

/**
 * The prefetches of the links in view all start at once when the list of shared chunks arrives;
 * queued, they run in idle time, as many as an idle period has room for.
 */
describe('queueWhenIdle', () => {
  let idle: ((deadline: { timeRemaining: () => number }) => void)[];
  beforeEach(() => {
    idle = [];
    Object.assign(window, { requestIdleCallback: (run: (typeof idle)[number]) => idle.push(run) });
  });
  afterEach(() => delete (window as Partial<Window>).requestIdleCallback);
  /** The browser's next idle period, with room for `jobs` jobs. */
  const idlePeriod = (jobs: number) => {
    let left = jobs;
    idle.shift()!({ timeRemaining: () => (--left > 0 ? 10 : 0) });
  };

  it('runs the jobs in order, as many in one idle period as it has time for, and at least one', () => {
    const ran: number[] = [];
    for (let i = 1; i <= 5; i++) queueWhenIdle(() => ran.push(i));
    expect(ran).toEqual([]);
    idlePeriod(3);
    expect(ran).toEqual([1, 2, 3]);
    idlePeriod(0);
    expect(ran).toEqual([1, 2, 3, 4]);
    queueWhenIdle(() => ran.push(6));
    idlePeriod(10);
    expect(ran).toEqual([1, 2, 3, 4, 5, 6]);
    expect(idle).toHaveLength(0);
  });

  it('goes on after a job that throws', () => {
    const ran: string[] = [];
    queueWhenIdle(() => {
      throw new Error('prefetch failed');
    });
    queueWhenIdle(() => ran.push('next'));
    expect(() => idlePeriod(10)).toThrow('prefetch failed');
    idlePeriod(10);
    expect(ran).toEqual(['next']);
    queueWhenIdle(() => ran.push('later'));
    idlePeriod(10);
    expect(ran).toEqual(['next', 'later']);
  });
});
