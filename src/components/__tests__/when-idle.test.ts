import { whenIdle } from '../when-idle';

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
