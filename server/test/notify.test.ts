/**
 * @jest-environment node
 */
import { languages } from '../../domain/languages';
import { FAILURE_REASONS, REFUNDS } from '../../domain/orders';
import { messageText, phrase } from '../src/modules/notify/service';

/** Message texts come from locales/<lng>/notify.json by typed keys, with their placeholders filled. */
describe('notify texts', () => {
  it('fill a message in the recipient’s language', () => {
    const text = messageText('de', 'sendCode', { id: 'S1', code: 'ABCD-EFGH-IJKL-MNOP', amount: '0.5', fee: '0.0001', currency: 'BTC', address: 'bc1qexample' });
    expect(text.subject).toContain('0.5 BTC');
    expect(text.body).toContain('ABCD-EFGH-IJKL-MNOP');
    expect(text.body).not.toMatch(/\{\{/);
  });

  it.each(languages)('%s has a phrase for every order failure reason and refund', (language) => {
    for (const reason of FAILURE_REASONS) expect(phrase(language, 'failureReasons', reason)).not.toBe(reason);
    for (const refund of REFUNDS) expect(phrase(language, 'refunds', refund)).not.toBe(refund);
  });

  it('takes only keys of notify.json', () => {
    // @ts-expect-error -- no such message
    expect(() => messageText('en', 'sendCod', {})).toThrow();
    // @ts-expect-error -- no such phrase group
    expect(() => phrase('en', 'failureReason', 'payout_failed')).toThrow();
  });
});
