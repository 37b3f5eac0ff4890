import { waitPhrase } from '../error-text';

/** A limit's wait, as the order form and the identity form show it after a 429. */
describe('waitPhrase', () => {
  it('says how long to wait in the largest whole unit, in the page language', () => {
    expect(waitPhrase(45, 'en')).toBe('in 45 seconds');
    expect(waitPhrase(3599, 'de')).toBe('in 60 Minuten');
    expect(waitPhrase(120, 'ru')).toBe('через 2 минуты');
    expect(waitPhrase(7200, 'uk')).toBe('через 2 години');
    expect(waitPhrase(1, 'fr')).toBe('dans 1 seconde');
    expect(waitPhrase(600, 'nl')).toBe('over 10 minuten');
  });
});
