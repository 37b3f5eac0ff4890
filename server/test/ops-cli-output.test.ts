/**
 * @jest-environment node
 */
import { printable } from '../src/ops/terminal';
import { databaseKinds, fixedRates, opsCliOutput, testApp, type TestApp } from './helpers';
import type { AddressInfo } from 'node:net';

/**
 * The ops CLI prints customer data (issue 34): order emails, names, support messages, reasons. A
 * terminal obeys the control characters in what it prints, so a customer who writes `ESC ]8;;` into
 * an email address puts a link in the operator's terminal, `ESC [2J` clears it, `ESC ]0;…BEL` sets
 * its title, a C1 CSI (U+009B) does what `ESC [` does, and a bidi override turns text around. Every
 * command's output goes through one function (server/src/ops/terminal.ts), and none of them prints
 * any of these raw.
 */
const BTC_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';
const ESC = '\u001b';
const BEL = '\u0007';
const CSI = '\u009b';
const RLO = '\u202e';
/** What no line may carry: C0 controls but the line break, DEL, C1, bidi and other format characters, separators, private use. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ue000-\uf8ff]/;

describe('printable', () => {
  it('escapes every control, bidi and format character, and keeps text and line breaks', () => {
    expect(printable(`a${ESC}]8;;https://evil.test${BEL}b${ESC}]8;;${BEL}`)).toBe(
      'a\\u001B]8;;https://evil.test\\u0007b\\u001B]8;;\\u0007',
    );
    expect(printable(`${ESC}[2J${CSI}31m${RLO}moc.elpmaxe`)).toBe('\\u001B[2J\\u009B31m\\u202Emoc.elpmaxe');
    expect(printable('line one\nline two\r\nthree\rover')).toBe('line one\nline two\r\nthree\\u000Dover');
    expect(printable('\u0000\u007f\u200b\u2066\u2069\u2028\u00ad\ufeff\ue000\udb80')).toBe(
      '\\u0000\\u007F\\u200B\\u2066\\u2069\\u2028\\u00AD\\uFEFF\\uE000\\uDB80',
    );
    // Names in every script, emoji and accents are printable and stay as they are.
    expect(printable('Zoë Ødegård — Юлія 🙂 ٣')).toBe('Zoë Ødegård — Юлія 🙂 ٣');
    // An astral private-use character: both of its UTF-16 units, as JSON writes them.
    expect(printable('\u{F0000}')).toBe('\\uDB80\\uDC00');
    // Inside JSON the escape is JSON's own: the text parses back to exactly what was sent.
    const sent = { email: `x${ESC}]8;;https://evil.test${BEL}@example.com`, note: `${RLO}${CSI}` };
    expect(JSON.parse(printable(JSON.stringify(sent)))).toEqual(sent);
  });
});

describe.each(databaseKinds())('ops CLI output with hostile customer data (%s)', (kind) => {
  let t: TestApp;
  let url: string;
  const email = `mallory${ESC}]8;;https://evil.test${BEL}click${ESC}]8;;${BEL}${CSI}2J@example.com`;
  const message = `Hello${ESC}[2J${ESC}]0;pwned${BEL} please refund ${RLO}cod.exe${'\u2066'} now, it has been days.`;

  beforeAll(async () => {
    t = await testApp(kind, {}, { rates: fixedRates() });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const order = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: { type: 'buy', currencyFrom: 'EUR', currencyTo: 'BTC', amount: '10', email, address: BTC_ADDRESS },
    });
    expect(order.statusCode).toBe(201);
    const support = await t.app.inject({
      method: 'POST',
      url: '/api/support',
      payload: { name: `Eve${ESC}[31m${RLO}`, email: 'eve@example.com', topic: 'order', message },
    });
    expect(support.statusCode).toBe(201);
  });
  afterAll(() => t.close());

  it('orders, outbox, audit and their --json and --csv: nothing raw, and the JSON still parses to what the server holds', async () => {
    const printed = await opsCliOutput(url, t.admin, async (ops) => {
      await ops(['orders']);
      await ops(['orders', 'mallory']);
      await ops(['outbox']);
      await ops(['outbox', '--json']);
      await ops(['orders', '--json']);
      await ops(['audit']);
    });
    const text = printed.join('\n');
    expect(text).not.toMatch(RAW);
    // The operator still sees what was sent, escaped.
    expect(text).toContain('mallory\\u001B]8;;https://evil.test\\u0007click');
    expect(text).toContain('Hello\\u001B[2J\\u001B]0;pwned\\u0007 please refund \\u202Ecod.exe\\u2066 now');
    const json = printed.find((line) => line.startsWith('[') && line.includes('"channel"'))!;
    expect((JSON.parse(json) as { body: string }[]).some((m) => m.body.includes(message))).toBe(true);
  });

  it('the audit trail as CSV: no raw control either, its lines still end in CRLF', async () => {
    const written: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    try {
      await opsCliOutput(url, t.admin, async (ops) => {
        // A freeze's reason is the operator's own text, pasted from a customer's message maybe.
        await ops(['freeze', 'eve@example.com', '--reason', `asked to${ESC}[8m hide${BEL}`]).catch(() => undefined);
        await ops(['audit', '--csv']);
      });
    } finally {
      write.mockRestore();
    }
    const csv = written.join('');
    expect(csv).toMatch(/\r\n$/);
    expect(csv.replace(/\r\n/g, '\n')).not.toMatch(RAW);
  });
});
