/**
 * @jest-environment node
 */
import { sql } from 'drizzle-orm';
import {
  OTP_FAILURE_WINDOW_MS,
  OTP_FAILURES_BEFORE_PASSWORD_WAIT,
  OTP_FAILURES_BEFORE_WAIT,
  otpWaitMs,
  passwordWaitMs,
} from '../src/dev/login-throttle';
import { idpUsersRepository } from '../src/dev/users';
import { mailSignUp } from '../src/modules/notify/service';
import { mailSecondFactorCode, secondFactorChanged } from '../src/modules/protection/service';
import { databaseKinds, testApp, testUser, TEST_ISSUER, type TestApp } from './helpers';

/**
 * Account hardening (issue 34), on both databases: the one-time-password count per account that
 * every replica shares, and what account protection makes of a second factor changed at the
 * identity provider (the provider's side, over HTTP: idp.test.ts).
 */
const EXTERNAL = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';

type Mail = { subject: string; body: string; html: string };

describe.each(databaseKinds())('account hardening (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp(kind);
  });
  afterAll(() => t.close());

  const mails = async (to: string): Promise<Mail[]> =>
    (await t.app.inject({ url: `/api/ops/outbox?to=${encodeURIComponent(to)}`, headers: t.admin })).json().messages;
  const security = async (headers: Record<string, string>) =>
    (await t.app.inject({ url: '/api/wallet/security', headers })).json();

  describe('one-time passwords, counted per account in the database', () => {
    it('counts 40 attempts at once exactly once each: five are tried, the rest wait, and the password step waits too', async () => {
      const user = await idpUsersRepository.create(t.app.db, {
        email: 'otp-count@muntly.test',
        name: 'Count',
        password: 'right-password-1',
      });
      const now = new Date();
      const claims = await Promise.all(
        Array.from({ length: 40 }, () =>
          idpUsersRepository.claimOtpAttempt(t.app.db, user!.id, now, OTP_FAILURE_WINDOW_MS),
        ),
      );
      expect(claims.map((c) => c.failures).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
      expect(claims.filter((c) => otpWaitMs(c, now.getTime()) === 0)).toHaveLength(OTP_FAILURES_BEFORE_WAIT);
      const stored = (await idpUsersRepository.findById(t.app.db, user!.id))!;
      expect(passwordWaitMs({ failures: stored.otpFailures, since: stored.otpFailedSince }, now.getTime())).toBe(
        OTP_FAILURE_WINDOW_MS,
      );
      // The window ends: the count starts again.
      const later = new Date(now.getTime() + OTP_FAILURE_WINDOW_MS);
      expect(otpWaitMs(claims[0]!, later.getTime())).toBe(0);
      expect(await idpUsersRepository.claimOtpAttempt(t.app.db, user!.id, later, OTP_FAILURE_WINDOW_MS)).toEqual({
        failures: 1,
        since: later,
      });
      // A right code clears it.
      await idpUsersRepository.clearOtpFailures(t.app.db, user!.id);
      expect(await idpUsersRepository.findById(t.app.db, user!.id)).toMatchObject({
        otpFailures: 0,
        otpFailedSince: null,
      });
    });

    it('waits only after the limits: fewer failures never throttle', () => {
      const since = new Date();
      expect(otpWaitMs({ failures: OTP_FAILURES_BEFORE_WAIT, since })).toBe(0);
      expect(otpWaitMs({ failures: OTP_FAILURES_BEFORE_WAIT + 1, since })).toBeGreaterThan(0);
      expect(passwordWaitMs({ failures: OTP_FAILURES_BEFORE_PASSWORD_WAIT - 1, since })).toBe(0);
      expect(passwordWaitMs({ failures: OTP_FAILURES_BEFORE_PASSWORD_WAIT, since })).toBeGreaterThan(0);
      expect(passwordWaitMs({ failures: 99, since: null })).toBe(0);
    });
  });

  describe('the sign-up form’s email', () => {
    it('welcomes a new address, and tells an address with an account that someone tried to sign up with it, in Muntly’s words only', async () => {
      const u = await testUser(t, 'signed-up@muntly.test');
      await t.app.inject({
        method: 'PATCH',
        url: '/api/wallet/security',
        headers: u.headers,
        payload: { phrase: 'Leise Regen' },
      });
      await mailSignUp(t.app.db, {
        email: u.email,
        language: 'de',
        existing: true,
        loginUrl: 'http://localhost:8000/de/login/',
      });
      const [tried] = await mails(u.email);
      expect(tried!.subject).toBe('Jemand wollte sich mit Ihrer E-Mail-Adresse registrieren');
      expect(tried!.body.startsWith('Ihr Anti-Phishing-Satz: Leise Regen')).toBe(true);
      expect(tried!.body).toContain('http://localhost:8000/de/login/');
      await mailSignUp(t.app.db, {
        email: 'brand-new@muntly.test',
        language: 'en',
        existing: false,
        loginUrl: 'http://localhost:8000/login/',
      });
      const [welcome] = await mails('brand-new@muntly.test');
      expect(welcome!.subject).toBe('Welcome to Muntly');
      expect(welcome!.body).toContain('http://localhost:8000/login/');
    });
  });

  describe('a second factor changed at the identity provider', () => {
    it('emails the code as a security email with the freeze link, and records the change with its event, email and cool-down', async () => {
      const email = 'second-factor@muntly.test';
      const u = await testUser(t, email, { deposit: '0.01', book: [EXTERNAL] });
      const actor = {
        issuer: TEST_ISSUER,
        subject: `auth0|${email}`,
        email,
        client: 'Firefox on Linux',
        language: 'de' as const,
      };

      await mailSecondFactorCode(t.app.db, t.app.protection.links, {
        ...actor,
        code: 'ABCD-EFGH-IJKL-MNOP',
        change: 'second_factor_added',
      });
      const [codeMail] = await mails(email);
      expect(codeMail!.subject).toBe('Ihr Code zum Ändern der Anmeldung in zwei Schritten');
      expect(codeMail!.body).toContain('ABCD-EFGH-IJKL-MNOP');
      expect(codeMail!.body).toContain('Anmeldung in zwei Schritten eingeschaltet');
      expect(codeMail!.body).toMatch(/\/api\/security\/freeze\?t=/);
      // Asking for a code changes nothing yet.
      expect((await security(u.headers)).sendsPausedUntil).toBeNull();

      await t.app.db.transaction((tx) =>
        secondFactorChanged(tx, t.app.protection, { ...actor, change: 'second_factor_added' }),
      );
      const overview = await security(u.headers);
      expect(overview.events[0]).toMatchObject({ kind: 'second_factor_added', client: 'Firefox on Linux' });
      expect(Date.parse(overview.sendsPausedUntil) - Date.now()).toBeGreaterThan(23 * 3_600_000);
      const [told] = await mails(email);
      expect(told!.subject).toBe(
        'Sicherheit Ihres Muntly-Kontos: Anmeldung in zwei Schritten eingeschaltet (eine neue Authenticator-App)',
      );
      expect(told!.body).toMatch(/\/api\/security\/freeze\?t=/);
      const send = await t.app.inject({
        method: 'POST',
        url: '/api/wallet/sends',
        headers: u.headers,
        payload: { currency: 'BTC', address: EXTERNAL, amount: '0.001' },
      });
      expect(send.json().error.code).toBe('sends_paused');

      // Rolled back with the change: no event, no email, no pause.
      const other = 'second-factor-2@muntly.test';
      const v = await testUser(t, other);
      await expect(
        t.app.db.transaction(async (tx) => {
          await secondFactorChanged(tx, t.app.protection, {
            ...actor,
            subject: `auth0|${other}`,
            email: other,
            change: 'second_factor_added',
          });
          throw new Error('the provider failed');
        }),
      ).rejects.toThrow('the provider failed');
      expect((await security(v.headers)).events.map((e: { kind: string }) => e.kind)).not.toContain(
        'second_factor_added',
      );
      expect((await mails(other)).filter((m) => m.subject.includes('zwei Schritten'))).toHaveLength(0);
    });

    it('tells a login without an account yet by email, without a freeze link (nothing to freeze)', async () => {
      const email = 'no-account-yet@muntly.test';
      const actor = {
        issuer: TEST_ISSUER,
        subject: 'local-subject-without-account',
        email,
        client: 'API',
        language: 'en' as const,
      };
      await mailSecondFactorCode(t.app.db, t.app.protection.links, {
        ...actor,
        code: 'QRST-UVWX-YZAB-CDEF',
        change: 'second_factor_added',
      });
      await t.app.db.transaction((tx) =>
        secondFactorChanged(tx, t.app.protection, { ...actor, change: 'second_factor_added' }),
      );
      const [changed, code] = await mails(email);
      expect(code!.body).toContain('QRST-UVWX-YZAB-CDEF');
      expect(changed!.subject).toBe(
        'Security of your Muntly account: Two-step login switched on (a new authenticator app)',
      );
      for (const mail of [code!, changed!]) expect(mail.body).not.toContain('/api/security/freeze');
      const rows = (await t.app.db.execute(
        sql`select count(*)::int as n from security_events where kind = 'second_factor_added'`,
      )) as unknown as { rows: { n: number }[] };
      expect(rows.rows[0]!.n).toBe(1);
    });
  });
});
