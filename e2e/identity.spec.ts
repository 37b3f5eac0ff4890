import AxeBuilder from '@axe-core/playwright';
import { test, expect, locale, ops } from './fixtures';

/** The operator's command line, against the server Playwright started. */
test('bank verification in Dutch: enabled by the operator, IBAN submitted, code from the dev mailbox, verified', async ({
  page,
  context,
  baseURL,
}) => {
  const nl = locale('nl', 'identity');
  const nlErrors = locale('nl', 'errors');
  const auth = locale('nl', 'auth');
  expect(ops(baseURL!, 'enable-verification', 'demo2@muntly.test', 'bank')).toContain(
    'bank verification is now step_1',
  );

  await page.goto('/nl/identity/me/');
  await page.getByLabel(auth.idp.email).fill('demo2@muntly.test');
  await page.getByLabel(auth.idp.password).fill('muntly-demo');
  await page.getByRole('button', { name: auth.idp.loginButton }).click();
  await expect(page).toHaveURL(/\/nl\/identity\/me\/$/);

  const bank = page.getByRole('region', { name: nl.overview.kinds.bank.title });
  await expect(bank.getByText(nl.me.status.replace('{{phase}}', nl.me.phases.step_1))).toBeVisible();
  // Another kind is still closed, and says so.
  await expect(
    page
      .getByRole('region', { name: nl.overview.kinds.mobile.title })
      .getByText(nl.me.status.replace('{{phase}}', nl.me.phases.not_enabled)),
  ).toBeVisible();

  // A bad IBAN is refused next to its field, before anything is sent.
  await bank.getByLabel(nl.fields.iban).fill('NL91 ABNA 0417 1643 01');
  await bank.getByLabel(nl.fields.beneficiary).fill('Second Demo');
  await bank.getByRole('button', { name: nl.me.submit }).click();
  await expect(bank.getByText(nlErrors.invalid_iban)).toBeVisible();

  await bank.getByLabel(nl.fields.iban).fill('nl91 abna 0417 1643 00');
  await bank.getByRole('button', { name: nl.me.submit }).click();
  await expect(bank.getByText(nl.me.status.replace('{{phase}}', nl.me.phases.step_2))).toBeVisible();
  // The sentence states the transfer, the code's letters and its life in Dutch, as the server applies them.
  await expect(
    bank.getByText(
      nl.me.howCodeArrives.bank
        .replace('{{amount}}', '€\u00a00,01')
        .replace('{{letters}}', '16')
        .replace('{{validity}}', '14 dagen'),
    ),
  ).toBeVisible();
  // A new code costs a transfer: the page says from when one can be asked for.
  await bank.locator('summary').click();
  await expect(bank.getByText(nl.me.nextCodeAt.split('{{time}}')[0]!.trim())).toBeVisible();

  const mailbox = await context.newPage();
  await mailbox.goto('/dev/mailbox?to=NL91 ABNA 0417 1643 00');
  const transfer = await mailbox.locator('pre').first().innerText();
  const code = /MUNTLY ([A-Z]{4}-[A-Z]{4}-[A-Z]{4}-[A-Z]{4})/.exec(transfer)![1]!;
  await mailbox.close();

  await bank.getByLabel(nl.me.codeLabel).fill(code.toLowerCase());
  await bank.getByRole('button', { name: nl.me.confirm }).click();
  await expect(bank.getByText(nl.me.status.replace('{{phase}}', nl.me.phases.verified))).toBeVisible();
  await expect(bank.getByText('NL91 ABNA 0417 1643 00', { exact: true })).toBeVisible();

  // The page with its forms stays accessible (WCAG 2.1 AA).
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // The operator's outbox holds the same transfer.
  expect(ops(baseURL!, 'outbox', '--json', '--to', 'NL91 ABNA 0417 1643 00')).toContain('"channel": "bank"');
});
