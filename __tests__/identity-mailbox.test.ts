/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';
import { IDENTITY_MAILBOX } from '#domain/contact';
import { languages } from '#domain/languages';

/**
 * Issue 35: the address that receives copies of ID documents is shown only to a logged-in user on
 * their identity page, and in emails under their anti-phishing phrase. A public page that names it
 * lets a fake page or email name a look-alike, and the stranger trusts it. This lists every place
 * the address can reach a reader from and proves it is one of those.
 */
const root = path.join(__dirname, '..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

function filesUnder(dir: string, pattern: RegExp): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__tests__' ? [] : filesUnder(file, pattern);
    return pattern.test(entry.name) ? [file] : [];
  });
}

describe('the identity mailbox (issue 35)', () => {
  it('is written in no text of any language: the texts that need it are given it where it may be shown', () => {
    for (const language of languages) {
      for (const file of fs.readdirSync(path.join(root, 'locales', language))) {
        const text = read(path.join('locales', language, file));
        expect([file, text.includes(IDENTITY_MAILBOX)]).toEqual([file, false]);
        // The legal texts and the contact page once named it through a placeholder.
        expect([file, text.includes('{{identityMailbox}}')]).toEqual([file, false]);
      }
    }
  });

  it('is used by the site only on the logged-in identity page', () => {
    const users = filesUnder('src', /\.tsx?$/).filter((file) => /IDENTITY_MAILBOX|identity@/.test(read(file)));
    expect(users).toEqual([path.join('src', 'features', 'identity', 'components', 'my-identity.tsx')]);
    // That page shows it inside the island only a logged-in user reaches.
    expect(read('src/pages/identity/me.tsx')).toMatch(
      /<ProtectedIsland[^>]*>[\s\S]*<MyIdentity \/>[\s\S]*<\/ProtectedIsland>/,
    );
  });

  it('is put into an email only by the identity module, into the one message sent under the phrase', () => {
    const users = filesUnder('server/src', /\.ts$/).filter((file) => read(file).includes('IDENTITY_MAILBOX'));
    expect(users).toEqual([path.join('server', 'src', 'modules', 'identity', 'service.ts')]);
    const service = read('server/src/modules/identity/service.ts');
    // The one use: the instructions, chosen by whether the account has an anti-phishing phrase.
    expect(service.match(/IDENTITY_MAILBOX/g)).toHaveLength(2); // the import and the use
    // Read with its whitespace folded, so that the formatter's line breaks do not matter.
    expect(service.replace(/\s+/g, ' ')).toMatch(
      /\(await antiPhishingPhrase\(db, accountId\)\) \? emailText\(language, 'idInstructions', \{ email: IDENTITY_MAILBOX \}\)/,
    );
    for (const language of languages) {
      const notify = JSON.parse(read(`locales/${language}/notify.json`)) as Record<string, { body?: string }>;
      expect(notify.idInstructionsNoPhrase!.body).not.toContain('{{email}}');
    }
  });
});
