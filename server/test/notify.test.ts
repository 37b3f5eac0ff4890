/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { formatDateTime } from '#domain/format';
import { languages, type Language } from '#domain/languages';
import { FAILURE_REASONS, REFUNDS } from '#domain/orders';
import { ensureAccount } from '../src/modules/accounts/service';
import { blocksOf, emailHtml } from '../src/modules/notify/email-html';
import { orderPlacedMail, type PlacedMailOrder } from '../src/modules/notify/order-placed';
import { withPhraseBanner } from '../src/modules/notify/phrase-banner';
import { notifyRepository } from '../src/modules/notify/repository';
import {
  emailFooter,
  emailParts,
  emailText,
  fillTemplate,
  formatMoney,
  messageText,
  phrase,
  phrasesOfRecipients,
  setEmailOperator,
  type EmailParts,
  type MessageKey,
} from '../src/modules/notify/service';
import { withClickableLinks } from '../src/modules/protection/mail';
import { databaseKinds, testApp, UUID, type TestApp } from './helpers';
import type { Auth } from '../src/plugins/auth';

const BANK = { iban: 'DE89370400440532013000', bic: 'COBADEFFXXX', beneficiary: 'Muntly' };
const CODE = 'ABCD-EFGH-JKLM-NPQR';
const english = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../locales/en/notify.json'), 'utf8')) as Record<
  string,
  unknown
>;
/** Every message of notify.json that has a subject and a body. */
const MESSAGE_KEYS = Object.keys(english).filter(
  (k) => typeof (english[k] as { subject?: unknown }).subject === 'string',
) as MessageKey[];
const VALUES = { code: CODE, name: 'Ann', amount: '1', reference: 'ABCD-EFGH-JKLM-NPQR-STUV' };

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
    // Euros carry "€" in Ukrainian too, as on the site (Intl's own Ukrainian writes "EUR").
    expect(formatMoney('uk', '30000', 'EUR')).toBe('30\u00a0000,00\u00a0€');
    expect(formatMoney('ru', '0.01', 'EUR')).toBe('0,01\u00a0€');
    expect(formatMoney('en', '12345678.123456789', 'ETH')).toBe('12,345,678.123456789 ETH');
  });

  it('name nothing by an internal id: no message template has an {{id}}, no filled message a UUID', () => {
    for (const language of languages) {
      const raw = fs.readFileSync(path.resolve(__dirname, `../../locales/${language}/notify.json`), 'utf8');
      expect(raw).not.toMatch(/\{\{\s*\w*[iI]d\s*\}\}/);
      expect(raw).not.toMatch(UUID);
      for (const key of MESSAGE_KEYS) {
        const text = emailText(language, key, VALUES);
        for (const part of [text.subject, text.body, text.html]) expect(part).not.toMatch(UUID);
      }
    }
  });
});

/** The HTML part of every email, made from its text. */
describe('email HTML', () => {
  it('escapes what a user typed (a name, a beneficiary, a message) wherever it lands', () => {
    const name = `<img src=x onerror="alert('1')"> Tom & "Jerry"`;
    const text = emailText('en', 'codeEmail', { name, code: CODE });
    expect(text.body).toContain(name); // the text part is plain text
    expect(text.html).toContain(
      'Hello &lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; Tom &amp; &quot;Jerry&quot;,',
    );
    expect(text.html).not.toContain('<img');
    expect(text.html).not.toContain('onerror="');
    // In the title and heading too (a subject can carry a value), and in a details row.
    const html = emailHtml(
      'en',
      'Order </title><script>x()</script>',
      'Label: <b>bold</b> & co\nOther: "quoted"',
      emailFooter('en'),
    );
    expect(html).toContain('<title>Order &lt;/title&gt;&lt;script&gt;x()&lt;/script&gt;</title>');
    expect(html).not.toContain('<script');
    expect(html).toMatch(/<div[^>]*>&lt;b&gt;bold&lt;\/b&gt; &amp; co<\/div>/);
    expect(html).toMatch(/<div[^>]*>&quot;quoted&quot;<\/div>/);
  });

  it('is a mail-client page: language, brand header, at most 600 px, inline styles only, no scripts or images', () => {
    const { html } = orderPlacedMail(
      'ru',
      {
        reference: 'ABCD-EFGH-JKLM-NPQR-STUV',
        shortReference: 'ABCD-EFGH',
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '100.00',
        useMyWallet: false,
        receivingAddress: null,
      },
      BANK,
    );
    expect(html).toMatch(/^<!DOCTYPE html><html lang="ru" dir="ltr">/);
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
    const html = emailHtml('en', 'Subject', `Hello,\nsecond line\n\n${CODE}\n\nMuntly`, emailFooter('en'));
    expect(html).toContain('Hello,<br>second line</p>');
    expect(html).toMatch(new RegExp(`<p style="[^"]*font-size:20px[^"]*">${CODE}</p>`));
    // "Muntly" closes the text; the HTML has it in its header, and its footer names the operator.
    expect(html.match(/>Muntly</g)).toHaveLength(1);
    expect(html).toContain('Muntly is operated by Sample Operator Ltd');
  });

  it.each(languages)(
    '%s: the order email for a bank buy has the payment details, BIC only when there is one',
    (language) => {
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
      // The IBAN grouped by four, as the order page writes it (issue 35: one IBAN grouping).
      for (const value of ['DE89 3704 0044 0532 0130 00', 'COBADEFFXXX', 'Muntly', amount, 'ABCD-EFGH']) {
        expect(mail.body).toContain(value);
        expect(mail.html).toContain(value);
      }
      expect(mail.body).not.toContain('DE89370400440532013000');
      expect(mail.body).not.toMatch(/\{\{/);
      expect(orderPlacedMail(language, order, { ...BANK, bic: '' }).body).not.toMatch(/BIC/);
      // Paid from the wallet: nothing to transfer.
      expect(orderPlacedMail(language, { ...order, useMyWallet: true }, BANK).body).not.toContain(
        'DE89 3704 0044 0532 0130 00',
      );
      // Pay by: the moment the order expires, to the minute and in UTC, not only its day.
      const now = new Date('2026-11-28T19:07:00Z');
      const dated = orderPlacedMail(language, order, BANK, { expiryDays: 7, now });
      const payBy = formatDateTime(new Date('2026-12-05T19:07:00Z'), language, { utc: true });
      expect(payBy).toMatch(/19:07 UTC$/);
      expect(dated.body).toContain(payBy);
    },
  );
});

/** A configured operator whose values need escaping in HTML. */
const OPERATOR = {
  sample: false as const,
  name: 'Müller & Söhne <Krypto> GmbH',
  address: 'Hauptstraße 1, 10115 Berlin, Deutschland',
  representatives: 'Erika "Eri" Mustermann',
  registration: "Amtsgericht Charlottenburg, HRB 123456 B (O'Brien)",
  email: 'kontakt@muntly.example',
  phone: '+49 30 1234567',
};

/** The text part's footer: what follows the signature separator "-- ". */
const footerOf = (body: string) => body.slice(body.lastIndexOf('\n-- \n') + 5);

/** The operator at the foot of every email (text and HTML), from OPERATOR_* or the marked sample. */
describe('the operator at the foot of every email', () => {
  afterEach(() => setEmailOperator({ sample: true }));

  it('names the configured operator in English: name and address, representatives, register entry, contact', () => {
    setEmailOperator(OPERATOR);
    const mail = emailText('en', 'orderExpired', { reference: VALUES.reference, days: '14' });
    expect(mail.body).toMatch(/\n\nMuntly\n\n-- \n/);
    expect(footerOf(mail.body).split('\n')).toEqual([
      'Muntly is operated by Müller & Söhne <Krypto> GmbH, Hauptstraße 1, 10115 Berlin, Deutschland.',
      'Represented by: Erika "Eri" Mustermann',
      "Register entry: Amtsgericht Charlottenburg, HRB 123456 B (O'Brien)",
      'Contact: kontakt@muntly.example, +49 30 1234567',
    ]);
    // The HTML says the same, every value escaped, and no sample notice.
    expect(mail.html).toContain(
      'Muntly is operated by Müller &amp; Söhne &lt;Krypto&gt; GmbH, Hauptstraße 1, 10115 Berlin, Deutschland.',
    );
    expect(mail.html).toContain('Represented by: Erika &quot;Eri&quot; Mustermann');
    expect(mail.html).toContain('Register entry: Amtsgericht Charlottenburg, HRB 123456 B (O&#39;Brien)');
    expect(mail.html).toContain('Contact: kontakt@muntly.example, +49 30 1234567');
    expect(mail.html).not.toContain('<Krypto>');
    expect(mail.html).not.toMatch(/Sample/);
  });

  it('names it in German and Russian, in text and HTML', () => {
    setEmailOperator(OPERATOR);
    const german = emailText('de', 'verificationEnabled', { kind: 'Bankkonto' });
    expect(footerOf(german.body).split('\n')).toEqual([
      'Muntly wird betrieben von Müller & Söhne <Krypto> GmbH, Hauptstraße 1, 10115 Berlin, Deutschland.',
      'Vertreten durch: Erika "Eri" Mustermann',
      "Registereintrag: Amtsgericht Charlottenburg, HRB 123456 B (O'Brien)",
      'Kontakt: kontakt@muntly.example, +49 30 1234567',
    ]);
    expect(german.html).toContain('Muntly wird betrieben von Müller &amp; Söhne &lt;Krypto&gt; GmbH');
    expect(german.html).toContain('Vertreten durch: Erika &quot;Eri&quot; Mustermann');
    const russian = emailText('ru', 'codeEmail', { code: CODE, name: 'Анна' });
    expect(footerOf(russian.body).split('\n')).toEqual([
      'Оператор Muntly — Müller & Söhne <Krypto> GmbH, Hauptstraße 1, 10115 Berlin, Deutschland.',
      'Уполномоченные представители: Erika "Eri" Mustermann',
      "Регистрация в реестре: Amtsgericht Charlottenburg, HRB 123456 B (O'Brien)",
      'Контакты: kontakt@muntly.example, +49 30 1234567',
    ]);
    expect(russian.html).toContain('Оператор Muntly — Müller &amp; Söhne &lt;Krypto&gt; GmbH');
    expect(russian.html).toContain('Регистрация в реестре: Amtsgericht Charlottenburg, HRB 123456 B (O&#39;Brien)');
  });

  it('leaves out what the operator did not give (representatives, register entry, phone)', () => {
    setEmailOperator({
      sample: false,
      name: 'Muntly B.V.',
      address: 'Keizersgracht 1, Amsterdam',
      email: 'info@muntly.example',
    });
    expect(
      footerOf(emailText('nl', 'orderExpired', { reference: VALUES.reference, days: '14' }).body).split('\n'),
    ).toEqual([
      'Muntly wordt geëxploiteerd door Muntly B.V., Keizersgracht 1, Amsterdam.',
      'Contact: info@muntly.example',
    ]);
  });

  it('shows the sample, marked as such, when no operator is configured (local mode)', () => {
    const english = emailText('en', 'codeEmail', { code: CODE, name: 'Ann' });
    expect(footerOf(english.body).split('\n')).toEqual([
      'Sample data — local mode: no operator is configured yet.',
      'Muntly is operated by Sample Operator Ltd, 1 Example Street, 00000 Sample City, Exampleland.',
      'Represented by: Alex Example (managing director)',
      'Register entry: Sample commercial register, no.\u00a0000000',
      'Contact: operator@muntly.example, +00 000 0000000',
    ]);
    expect(english.html).toMatch(
      /<p style="[^"]*font-weight:bold;[^"]*">Sample data — local mode: no operator is configured yet.<\/p>/,
    );
    const german = emailText('de', 'codeEmail', { code: CODE, name: 'Anna' });
    expect(german.body).toContain('Beispieldaten – lokaler Modus: Es ist noch kein Betreiber konfiguriert.');
    expect(german.html).toContain(
      'Muntly wird betrieben von Sample Operator Ltd, Musterstraße 1, 00000 Musterstadt, Musterland.',
    );
  });

  it.each(languages)('%s: every email kind ends with the footer, in its text and its HTML part', (language) => {
    setEmailOperator(OPERATOR);
    const operatedBy = phrase(language, 'operatorFooter', 'operatedBy')
      .replace('{{name}}', OPERATOR.name)
      .replace('{{address}}', OPERATOR.address);
    const contact = phrase(language, 'operatorFooter', 'contact').replace(
      '{{value}}',
      `${OPERATOR.email}, ${OPERATOR.phone}`,
    );
    for (const key of MESSAGE_KEYS) {
      const mail = emailText(language, key, VALUES);
      expect(footerOf(mail.body).split('\n')[0]).toBe(operatedBy);
      expect(mail.body.endsWith(contact)).toBe(true);
      expect(mail.html).toContain(operatedBy.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;'));
    }
  });
});

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
const isElement = (node: Node): node is Element => 'tagName' in node;

/** What the HTML parts use: a document, tables for layout, text blocks. Nothing that loads, runs or needs a stylesheet. */
const ELEMENTS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'body',
  'div',
  'table',
  'tbody',
  'tr',
  'td',
  'h1',
  'p',
  'br',
  'a',
]);
const VOID = new Set(['meta', 'br']);
const ATTRIBUTES = new Set([
  'href',
  'lang',
  'dir',
  'charset',
  'name',
  'content',
  'style',
  'role',
  'aria-roledescription',
  'aria-label',
  'aria-hidden',
  'width',
  'align',
  'cellpadding',
  'cellspacing',
  'border',
]);
/** CSS that mail clients drop or mangle: shorthands Outlook misreads, layout they do not have, anything loaded. */
const UNSAFE_CSS =
  /(^|;)\s*(font|background|position|float|flex[\w-]*|grid[\w-]*)\s*:|display\s*:\s*(flex|grid)|url\(|@import|expression\(/i;
/** Gmail cuts off a message above 102 KB. */
const GMAIL_CLIP_BYTES = 102 * 1024;

/**
 * What a mail client would stumble on in an HTML part, found by the HTML parser browsers use
 * (parse5, the WHATWG algorithm): parse errors; anything the parser had to repair (an element not
 * closed by its own end tag, one moved out of where the source put it, an end tag that closes
 * nothing); elements and attributes outside the email-safe set; styles that are not inline, in
 * longhand and email-safe; a missing language, direction, charset or title; a size Gmail clips.
 */
function htmlProblems(html: string, language: Language): string[] {
  const problems: string[] = [];
  const document = parse(html, {
    sourceCodeLocationInfo: true,
    onParseError: (error) => problems.push(`parse error ${error.code} at ${error.startOffset}`),
  });
  let closed = 0;
  let lastStart = -1;
  const visit = (node: Node, parent: Element | null) => {
    if (isElement(node)) {
      const where = node.sourceCodeLocation;
      const name = node.tagName;
      if (!ELEMENTS.has(name)) problems.push(`<${name}> is not email-safe`);
      if (!where?.startTag) {
        // The one element HTML implies on purpose: a table's body.
        if (name !== 'tbody') problems.push(`<${name}> was implied by the parser`);
      } else {
        if (where.endTag) closed++;
        else if (!VOID.has(name)) problems.push(`<${name}> at ${where.startOffset} is not closed by its end tag`);
        // In the tree as in the source: inside its parent, after the elements before it (a table's
        // stray content is moved in front of the table).
        const around = parent?.sourceCodeLocation;
        const outside =
          around?.startTag &&
          around.endTag &&
          (where.startOffset < around.startTag.endOffset || where.endOffset > around.endTag.startOffset);
        if (outside || where.startOffset < lastStart)
          problems.push(`<${name}> at ${where.startOffset} is out of its place in the source`);
        lastStart = where.startOffset;
      }
      for (const { name: attribute, value } of node.attrs) {
        if (!ATTRIBUTES.has(attribute)) problems.push(`<${name} ${attribute}> is not email-safe`);
        if (attribute === 'style' && UNSAFE_CSS.test(value))
          problems.push(`<${name} style="${value}"> is not email-safe`);
        if (
          attribute === 'style' &&
          !value.split(';').every((declaration) => declaration === '' || /^-?[a-z-]+:[^:]+$/.test(declaration))
        ) {
          problems.push(`<${name} style="${value}"> is not a list of declarations`);
        }
      }
    }
    if ('childNodes' in node) for (const child of node.childNodes) visit(child, isElement(node) ? node : null);
  };
  visit(document, null);
  const endTags = html.replace(/<!--[\s\S]*?-->/g, '').match(/<\/[a-z]/gi)?.length ?? 0;
  if (endTags !== closed) problems.push(`${endTags - closed} end tags close nothing`);

  const elements = (root: Node): Element[] =>
    (isElement(root) ? [root] : []).concat('childNodes' in root ? root.childNodes.flatMap(elements) : []);
  const all = elements(document);
  const attribute = (element: Element | undefined, name: string) => element?.attrs.find((a) => a.name === name)?.value;
  const [root] = all;
  if (document.childNodes[0]?.nodeName !== '#documentType') problems.push('no doctype');
  if (attribute(root, 'lang') !== language || attribute(root, 'dir') !== 'ltr')
    problems.push('<html> lacks lang or dir');
  // Webmail drops <html>: the wrapper inside <body> says it again.
  const wrapper = all.find((e) => e.tagName === 'body')?.childNodes.find(isElement);
  if (attribute(wrapper, 'lang') !== language || attribute(wrapper, 'dir') !== 'ltr')
    problems.push('the wrapper in <body> lacks lang or dir');
  if (!all.some((e) => e.tagName === 'meta' && attribute(e, 'charset') === 'utf-8')) problems.push('no charset');
  if (!all.some((e) => e.tagName === 'title' && e.childNodes.length > 0)) problems.push('no title');
  if (Buffer.byteLength(html) > GMAIL_CLIP_BYTES) problems.push(`${Buffer.byteLength(html)} bytes: Gmail clips it`);
  return problems;
}

/** The HTML Outlook on Windows reads: its conditional comments opened. */
const asOutlookReadsIt = (html: string) => html.replace(/<!--\[if mso\]>/g, '').replace(/<!\[endif\]-->/g, '');

/** Every kind of email, as it is made (its text, its HTML part) in a language. */
function everyEmail(language: Language): [string, EmailParts][] {
  const order: PlacedMailOrder = {
    reference: VALUES.reference,
    shortReference: 'ABCD-EFGH',
    type: 'buy',
    currencyFrom: 'EUR',
    currencyTo: 'BTC',
    amount: '1234.50',
    useMyWallet: false,
    receivingAddress: null,
  };
  const support = JSON.parse(fs.readFileSync(path.resolve(__dirname, `../../locales/${language}/support.json`), 'utf8'))
    .mail as { subject: string; body: string };
  return [
    ...MESSAGE_KEYS.map((key): [string, EmailParts] => [
      key,
      emailText(language, key, { ...VALUES, address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu', fee: '0.0001 BTC' }),
    ]),
    ['orderPlaced (bank buy)', orderPlacedMail(language, order, BANK)],
    [
      'orderPlaced (XRP sell)',
      orderPlacedMail(
        language,
        {
          ...order,
          type: 'sell',
          currencyFrom: 'XRP',
          currencyTo: 'EUR',
          amount: '250',
          receivingAddress: 'rEb8TK3gBgk5auZkwc6sHnwrGVJH8DuaLh:123456',
        },
        BANK,
      ),
    ],
    [
      'support confirmation',
      emailParts(
        language,
        fillTemplate(support.subject, { ticket: 'ABCD-EFGH' }),
        fillTemplate(support.body, { name: 'Ann', topic: 'Order', ticket: 'ABCD-EFGH', message: 'Where is my order?' }),
      ),
    ],
  ];
}

describe('the HTML part of every email kind', () => {
  it('finds what it should: a parse error, a repair, a stylesheet, a shorthand, a missing language', () => {
    const good = emailText('en', 'codeEmail', { code: CODE, name: 'Ann' }).html;
    expect(htmlProblems(good, 'en')).toEqual([]);
    expect(htmlProblems(good, 'de')).toEqual(['<html> lacks lang or dir', 'the wrapper in <body> lacks lang or dir']);
    expect(htmlProblems(good.replace('<h1 ', '<h1 class="x" '), 'en')).toEqual(['<h1 class> is not email-safe']);
    expect(htmlProblems(good.replace('</h1>', '</h1><table><div>x</div></table>'), 'en')).toEqual([
      expect.stringMatching(/^<table> at \d+ is out of its place in the source$/),
    ]);
    expect(htmlProblems(good.replace('</h1>', '</h1></span>'), 'en')).toEqual(['1 end tags close nothing']);
    expect(htmlProblems(good.replace('</h1>', '</h1><p>open'), 'en')).toEqual([
      expect.stringMatching(/^<p> at \d+ is not closed by its end tag$/),
    ]);
    expect(htmlProblems(good.replace('<head>', '<head><style>p{}</style>'), 'en')).toEqual([
      '<style> is not email-safe',
    ]);
    expect(htmlProblems(good.replace('font-size:20px', 'font:bold 20px Arial'), 'en')).toEqual([
      expect.stringMatching(/^<h1 style=".*"> is not email-safe$/),
    ]);
    expect(htmlProblems(good.replace('<!DOCTYPE html>', ''), 'en')).toEqual([
      'parse error missing-doctype at 0',
      'no doctype',
    ]);
  });

  it.each(languages)(
    '%s: every email is valid, client-safe HTML beside a text part, as Outlook reads it too',
    (language) => {
      for (const [kind, mail] of everyEmail(language)) {
        expect({ kind, problems: htmlProblems(mail.html, language) }).toEqual({ kind, problems: [] });
        expect({ kind, problems: htmlProblems(asOutlookReadsIt(mail.html), language) }).toEqual({ kind, problems: [] });
        // At most 600 px wide: max-width for the others, a fixed table for Outlook.
        expect(mail.html).toContain('max-width:600px');
        expect(mail.html).toContain('<!--[if mso]><table role="presentation" width="600"');
        // The text part (multipart/alternative: mail-relay.test.ts) says the same without markup.
        expect(mail.body.length).toBeGreaterThan(40);
        expect(mail.body).not.toMatch(/<\/?[a-z][^>]*>|&amp;|&lt;/);
      }
    },
  );

  it.each(languages)(
    '%s: the anti-phishing phrase atop an email and its clickable security links keep it client-safe',
    (language) => {
      const url = 'https://muntly.example/api/security/freeze?t=AbC-123.xyz_9';
      const freeze = fillTemplate(phrase(language, 'security', 'freeze'), { url });
      const typed = 'Blue <horses> & "42"';
      const [line = '', note = ''] = fillTemplate(phrase(language, 'security', 'phraseBanner'), {
        phrase: typed,
      }).split('\n');
      for (const key of MESSAGE_KEYS) {
        const mail = emailText(language, key, {
          ...VALUES,
          freeze,
          cancelUrl: url,
          address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
        });
        const html = withPhraseBanner(withClickableLinks(mail.html, [url]), line, typed, note);
        expect({ key, problems: htmlProblems(html, language) }).toEqual({ key, problems: [] });
        expect({ key, problems: htmlProblems(asOutlookReadsIt(html), language) }).toEqual({ key, problems: [] });
        // Escaped, and above the brand's header.
        expect(html).toContain('Blue &lt;horses&gt; &amp; &quot;42&quot;');
        expect(html.indexOf('&lt;horses&gt;')).toBeLessThan(html.indexOf('>Muntly</td>'));
        if (mail.body.includes(url)) expect(html).toContain(`<a href="${url}"`);
      }
    },
  );
});

/** The operator configured on a running server: its emails, as the outbox keeps them, name it. */
describe.each(databaseKinds())('emails of a server with a configured operator (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, {
      OPERATOR_NAME: OPERATOR.name,
      OPERATOR_ADDRESS: OPERATOR.address,
      OPERATOR_REPRESENTATIVES: OPERATOR.representatives,
      OPERATOR_REGISTRATION: OPERATOR.registration,
      OPERATOR_EMAIL: OPERATOR.email,
      OPERATOR_PHONE: OPERATOR.phone,
    });
  });
  afterAll(async () => {
    await t.close();
    setEmailOperator({ sample: true });
  });
  const mailsTo = async (email: string): Promise<{ subject: string; body: string; html: string }[]> =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(email)}`, headers: t.admin })).json().messages;

  it('the order confirmation (de) and the support confirmation (ru) end with the operator, escaped in HTML', async () => {
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { 'accept-language': 'de' },
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '50',
        email: `operator-de-${kind}@example.com`,
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    expect(placed.statusCode).toBe(201);
    const asked = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      headers: { 'accept-language': 'ru' },
      payload: {
        name: 'Анна',
        email: `operator-ru-${kind}@example.com`,
        topic: 'order',
        message: 'Где мой заказ? Он не пришёл за два дня.',
      },
    });
    expect(asked.statusCode).toBe(201);

    const [order] = await mailsTo(`operator-de-${kind}@example.com`);
    expect(footerOf(order!.body).split('\n')[0]).toBe(
      'Muntly wird betrieben von Müller & Söhne <Krypto> GmbH, Hauptstraße 1, 10115 Berlin, Deutschland.',
    );
    expect(order!.html).toContain('Muntly wird betrieben von Müller &amp; Söhne &lt;Krypto&gt; GmbH');
    expect(htmlProblems(order!.html, 'de')).toEqual([]);
    const [support] = await mailsTo(`operator-ru-${kind}@example.com`);
    expect(footerOf(support!.body).split('\n')).toContain('Контакты: kontakt@muntly.example, +49 30 1234567');
    expect(support!.html).toContain('Оператор Muntly — Müller &amp; Söhne &lt;Krypto&gt; GmbH');
    expect(htmlProblems(support!.html, 'ru')).toEqual([]);
  });
});

const login = (issuer: string, subject: string): Auth => ({ issuer, subject, scopes: new Set(), expiresAt: 0 });

describe.each(databaseKinds())('the anti-phishing phrase of an address (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(() => t.close());

  it('belongs to the one account of that address, in any spelling; an address two logins share gets none', async () => {
    const db = t.database.db;
    const own = await ensureAccount(db, login('https://a.example', 'own'), {
      email: 'Own@Example.com',
    });
    await notifyRepository.setPhrase(db, own.id, 'blue heron');
    // The same address under two logins (two issuers): whose phrase would it be?
    for (const [issuer, phraseText] of [
      ['https://a.example', 'red fox'],
      ['https://b.example', 'green owl'],
    ] as const) {
      const account = await ensureAccount(db, login(issuer, 'shared'), { email: 'shared@example.com' });
      await notifyRepository.setPhrase(db, account.id, phraseText);
    }
    const phrases = await phrasesOfRecipients(db, ['own@EXAMPLE.com', 'shared@example.com', 'nobody@example.com']);
    expect([...phrases]).toEqual([['own@example.com', 'blue heron']]);
  });
});
