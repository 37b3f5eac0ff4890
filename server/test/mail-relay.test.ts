/**
 * @jest-environment node
 */
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { outbox } from '../src/db/schema';
import { relayMail, smtpTransport, MAX_ATTEMPTS } from '../src/modules/notify/mail-relay';
import { writeWaitingEmails } from '../src/modules/notify/outbox-writer';
import { testApp, fixedRates, databaseKinds, UUID, type TestApp } from './helpers';
import type { AddressInfo } from 'node:net';

const rates = fixedRates();

/** A real SMTP server on a free port that keeps what it receives (or refuses it). */
async function smtpSink() {
  const received: { to: string[]; raw: string }[] = [];
  let refuse = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, callback) {
      callback(refuse ? Object.assign(new Error('mailbox unavailable'), { responseCode: 450 }) : undefined);
    },
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse: (value: boolean) => (refuse = value),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/**
 * The parts of a raw multipart email as a mail client reads them: each part's content type and its
 * body decoded (quoted-printable or base64, UTF-8).
 */
function partsOf(raw: string): { type: string; body: string }[] {
  const boundary = /boundary="?([^";\r\n]+)"?/.exec(raw)?.[1];
  if (!boundary) return [];
  return raw
    .split(`--${boundary}`)
    .slice(1, -1)
    .map((part) => {
      const [head = '', ...rest] = part.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const encoded = rest.join('\r\n\r\n');
      const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
      const bytes =
        encoding === 'base64'
          ? Buffer.from(encoded.replace(/\s+/g, ''), 'base64')
          : encoding === 'quoted-printable'
            ? Buffer.from(
                encoded
                  .replace(/=\r?\n/g, '')
                  .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
                'latin1',
              )
            : Buffer.from(encoded, 'utf8');
      return { type: /content-type:\s*([\w/-]+)/i.exec(head)?.[1]?.toLowerCase() ?? '', body: bytes.toString('utf8') };
    });
}

describe.each(databaseKinds())('emails through SMTP (%s)', (kind) => {
  let t: TestApp;
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  beforeAll(async () => {
    sink = await smtpSink();
    t = await testApp(kind, {}, { rates });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });
  const relay = () => relayMail(t.database.db, smtpTransport(sink.url), 'Muntly <no-reply@muntly.test>');
  const place = (email: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { 'accept-language': 'fr' },
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '50',
        email,
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });

  it('hands the order confirmation to the SMTP server once, in the language of the order', async () => {
    const order = (await place(`smtp-${kind}@example.com`)).json();
    expect(await relay()).toBeGreaterThanOrEqual(1);
    const mail = sink.received.find((m) => m.to.includes(`smtp-${kind}@example.com`))!;
    expect(mail.raw).toContain('From: Muntly <no-reply@muntly.test>');
    expect(mail.raw).toContain(`Subject: Votre ordre Muntly ${order.reference}`);
    expect(mail.raw.replace(/=\r?\n/g, '')).toContain(order.reference);
    // A text part and an HTML part, the same email twice (multipart/alternative), both with how to pay.
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/i);
    const parts = partsOf(mail.raw);
    expect(parts.map((part) => part.type)).toEqual(['text/plain', 'text/html']);
    const [text, html] = parts.map((part) => part.body);
    expect(text).toContain(`Motif du virement : ${order.shortReference}`);
    expect(html).toMatch(/^<!DOCTYPE html><html lang="fr" dir="ltr">/);
    for (const part of [text!, html!]) {
      // The operator at the foot (local mode: the marked sample).
      for (const value of [
        'DE89 3704 0044 0532 0130 00',
        'Bénéficiaire',
        '50,00\u00a0€',
        order.shortReference,
        'Muntly est exploité par Sample Operator Ltd',
        'Données d’exemple — mode local',
      ])
        expect(part).toContain(value);
      expect(part).not.toMatch(UUID);
    }
    const before = sink.received.length;
    expect(await relay()).toBe(0); // sent once only
    expect(sink.received.length).toBe(before);
  });

  it('keeps the confirmation as a template at placement; the writer writes it once, its pay-by date counted from the placement', async () => {
    const email = `template-${kind}@example.com`;
    const order = (await place(email)).json();
    const stored = async () => {
      const [row] = await t.database.db.select().from(outbox).where(eq(outbox.recipient, email));
      return row!;
    };
    // The placement stored what the email is written from (a few hundred bytes), not the email.
    const kept = await stored();
    expect(kept).toMatchObject({ template: 'orderPlaced', subject: null, body: null, html: null });
    expect(JSON.stringify(kept.params).length).toBeLessThan(1500);
    expect(kept.params).toMatchObject({ language: 'fr', order: { reference: order.reference } });
    // Written late (a writer that was down for two days: the stored placement time moved back to
    // stand for it), the email still gives the date the order was placed plus its seven days.
    const placedAt = new Date(Date.parse((kept.params as { placedAt: string }).placedAt) - 2 * 86_400_000);
    await t.database.db
      .update(outbox)
      .set({ params: { ...(kept.params as object), placedAt: placedAt.toISOString() } })
      .where(eq(outbox.id, kept.id));
    expect(await writeWaitingEmails(t.database.db)).toBeGreaterThanOrEqual(1);
    const written = await stored();
    expect(written).toMatchObject({ template: 'orderPlaced', params: null, sentAt: null });
    expect(written.subject).toBe(`Votre ordre Muntly ${order.reference}`);
    expect(written.body!.length).toBeGreaterThan(1000);
    expect(written.html).toMatch(/^<!DOCTYPE html>/);
    const payBy = new Date(placedAt.getTime() + 7 * 86_400_000);
    expect(written.body).toContain(new Intl.DateTimeFormat('fr', { dateStyle: 'long', timeZone: 'UTC' }).format(payBy));
    // Written once: a second run finds nothing, and the relay sends what was written.
    expect(await writeWaitingEmails(t.database.db)).toBe(0);
    expect((await stored()).body).toBe(written.body);
    expect(await relay()).toBeGreaterThanOrEqual(1);
    expect(sink.received.filter((m) => m.to.includes(email))).toHaveLength(1);
  });

  it('refuses an outbox row that is neither written nor a template', async () => {
    await expect(
      t.database.db.insert(outbox).values({ channel: 'email', recipient: `nothing-${kind}@example.com` }),
    ).rejects.toThrow();
    await expect(
      t.database.db
        .insert(outbox)
        .values({ channel: 'email', recipient: `nothing-${kind}@example.com`, template: 'orderPlaced' }),
    ).rejects.toThrow();
  });

  it('keeps a refused email and tries again later, then delivers it', async () => {
    sink.refuse(true);
    await place(`later-${kind}@example.com`);
    expect(await relay()).toBe(0);
    const [row] = await t.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, `later-${kind}@example.com`));
    expect(row).toMatchObject({ sentAt: null, attempts: 1 });
    expect(row!.lastError).toContain('mailbox unavailable');
    expect(MAX_ATTEMPTS).toBe(10);
    sink.refuse(false);
    expect(await relay()).toBe(1);
    expect(sink.received.some((m) => m.to.includes(`later-${kind}@example.com`))).toBe(true);
  });

  it('sends an email written before emails had an HTML part as text only', async () => {
    await t.database.db.insert(outbox).values({
      channel: 'email',
      recipient: `old-${kind}@example.com`,
      subject: 'Older email',
      body: 'Written before HTML parts.',
    });
    expect(await relay()).toBe(1);
    const mail = sink.received.find((m) => m.to.includes(`old-${kind}@example.com`))!;
    expect(mail.raw).toMatch(/Content-Type: text\/plain/i);
    expect(mail.raw).not.toMatch(/text\/html/i);
  });
});

describe.each(databaseKinds())('the email writer in the background (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind, { EMAIL_WRITER_INTERVAL_MS: '50' }, { rates });
  });
  afterAll(() => t.close());

  it('writes an order’s confirmation soon after the placement, without anything reading the outbox', async () => {
    const email = `background-${kind}@example.com`;
    const placed = await t.app.inject({
      method: 'POST',
      url: '/api/orders',
      payload: {
        type: 'buy',
        currencyFrom: 'EUR',
        currencyTo: 'BTC',
        amount: '50',
        email,
        address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      },
    });
    expect(placed.statusCode).toBe(201);
    const written = async () => {
      const [row] = await t.database.db.select().from(outbox).where(eq(outbox.recipient, email));
      return row?.body ?? null;
    };
    for (let tries = 0; tries < 100 && (await written()) === null; tries++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await written()).toContain(placed.json().reference);
  });
});
