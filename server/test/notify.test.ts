/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { languages } from '../../domain/languages';
import { FAILURE_REASONS, REFUNDS } from '../../domain/orders';
import { blocksOf, emailHtml } from '../src/modules/notify/email-html';
import { formatMoney, messageText, phrase, type MessageKey } from '../src/modules/notify/service';
import { orderPlacedMail } from '../src/modules/orders/mail';
import { UUID } from './helpers';

const BANK = { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', beneficiary: 'Muntly' };
const CODE = 'ABCD-EFGH-JKLM-NPQR';

/** Message texts come from locales/<lng>/notify.json by typed keys, with their placeholders filled. */
describe('notify texts', () => {
  it('fill a message in the recipient’s language', () => {
    const text = messageText('de', 'sendCode', {
      code: CODE,
      amount: formatMoney('de', '0.5', 'BTC'),
      fee: formatMoney('de', '0.0001', 'BTC'),
      shortAddress: 'bc1qexam…ample',
      address: 'bc1qexample',
    });
    expect(text.subject).toBe('Bestätigen Sie Ihre Sendung von 0,5 BTC');
    expect(text.body).toContain(`Ihr Code für die Sendung von 0,5 BTC an bc1qexam…ample:\n\n${CODE}`);
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

  it('format money as the language writes it: euros with their sign, crypto with its code, exactly', () => {
    expect(formatMoney('de', '1234.50', 'EUR')).toBe('1.234,50\u00a0€');
    expect(formatMoney('en', '1234.50', 'EUR')).toBe('€1,234.50');
    expect(formatMoney('fr', '0.00500000', 'BTC')).toBe('0,005 BTC');
    expect(formatMoney('en', '12345678.123456789', 'ETH')).toBe('12,345,678.123456789 ETH');
  });

  it('name nothing by an internal id: no message template has an {{id}}, no filled message a UUID', () => {
    const english = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../locales/en/notify.json'), 'utf8')) as Record<string, unknown>;
    for (const language of languages) {
      const raw = fs.readFileSync(path.resolve(__dirname, `../../locales/${language}/notify.json`), 'utf8');
      expect(raw).not.toMatch(/\{\{\s*\w*[iI]d\s*\}\}/);
      expect(raw).not.toMatch(UUID);
      for (const key of Object.keys(english).filter((k) => typeof (english[k] as { subject?: unknown }).subject === 'string') as MessageKey[]) {
        const text = messageText(language, key, { code: CODE, name: 'Ann', amount: '1', reference: 'ABCD-EFGH-JKLM-NPQR-STUV' });
        for (const part of [text.subject, text.body, text.html]) expect(part).not.toMatch(UUID);
      }
    }
  });
});

/** The HTML part of every email, made from its text. */
describe('email HTML', () => {
  it('escapes what a user typed (a name, a beneficiary, a message) wherever it lands', () => {
    const name = `<img src=x onerror="alert('1')"> Tom & "Jerry"`;
    const text = messageText('en', 'codeEmail', { name, code: CODE });
    expect(text.body).toContain(name); // the text part is plain text
    expect(text.html).toContain('Hello &lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; Tom &amp; &quot;Jerry&quot;,');
    expect(text.html).not.toContain('<img');
    expect(text.html).not.toContain('onerror="');
    // In the title and heading too (a subject can carry a value), and in a details row.
    const html = emailHtml('en', 'Order </title><script>x()</script>', 'Label: <b>bold</b> & co\nOther: "quoted"');
    expect(html).toContain('<title>Order &lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</title>');
    expect(html).not.toContain('<script');
    expect(html).toMatch(/<div[^>]*>&lt;b&gt;bold&lt;\/b&gt; &amp; co<\/div>/);
    expect(html).toMatch(/<div[^>]*>&quot;quoted&quot;<\/div>/);
  });

  it('is a mail-client page: language, brand header, at most 600 px, inline styles only, no scripts or images', () => {
    const { html } = orderPlacedMail(
      'ru',
      { reference: 'ABCD-EFGH-JKLM-NPQR-STUV', shortReference: 'ABCD-EFGH', type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '100.00', useMyWallet: false, receivingAddress: null },
      BANK,
    );
    expect(html).toMatch(/^<!DOCTYPE html><html lang="ru">/);
    expect(html).toContain('max-width:600px');
    expect(html).toMatch(/<td style="[^"]*">Muntly<\/td><\/tr><tr>/);
    expect(html).not.toMatch(/<(script|img|link|style)\b/);
    expect(html).not.toMatch(/\sclass=/);
  });

  it('keeps the text’s shape: paragraphs, "Label: value" lines as details, a lone code set large; the sign-off is the footer’s', () => {
    expect(blocksOf(`Hello,\nsecond line\n\n${CODE}\n\nAmount: 1 BTC\nTo : bc1q\n\nMuntly`)).toEqual([
      { kind: 'paragraph', lines: ['Hello,', 'second line'] },
      { kind: 'code', code: CODE },
      {
        kind: 'details',
        rows: [
          ['Amount', '1 BTC'],
          ['To', 'bc1q'],
        ],
      },
      { kind: 'paragraph', lines: ['Muntly'] },
    ]);
    const html = emailHtml('en', 'Subject', `Hello,\nsecond line\n\n${CODE}\n\nMuntly`);
    expect(html).toContain('Hello,<br>second line</p>');
    expect(html).toMatch(new RegExp(`<p style="[^"]*font:bold 20px[^"]*">${CODE}</p>`));
    // "Muntly" closes the text; the HTML has it in its header and footer only.
    expect(html.match(/>Muntly</g)).toHaveLength(2);
  });

  it.each(languages)('%s: the order email for a bank buy has the payment details, BIC only when there is one', (language) => {
    const order = {
      reference: 'ABCD-EFGH-JKLM-NPQR-STUV',
      shortReference: 'ABCD-EFGH',
      type: 'buy',
      currencyFrom: 'EUR',
      currencyTo: 'BTC',
      amount: '1234.50',
      useMyWallet: false,
      receivingAddress: null,
    };
    const mail = orderPlacedMail(language, order, BANK);
    const amount = formatMoney(language, '1234.50', 'EUR');
    for (const value of ['DE89370400440532013000', 'COBADEFFXXX', 'Muntly', amount, 'ABCD-EFGH']) {
      expect(mail.body).toContain(value);
      expect(mail.html).toContain(value);
    }
    expect(mail.body).not.toMatch(/\{\{/);
    expect(orderPlacedMail(language, order, { ...BANK, bic: '' }).body).not.toMatch(/BIC/);
    // Paid from the wallet: nothing to transfer.
    expect(orderPlacedMail(language, { ...order, useMyWallet: true }, BANK).body).not.toContain('DE89370400440532013000');
  });
});
