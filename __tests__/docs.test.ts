/**
 * @jest-environment node
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * The front door: a README a newcomer reads in a minute, whose commands are exactly those CI runs
 * (.ci/run says it runs "the README's commands"), and pages under docs/ whose links all lead
 * somewhere.
 */
const root = path.resolve(__dirname, '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

function markdownFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? markdownFiles(full) : entry.name.endsWith('.md') ? [full] : [];
  });
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

describe('README.md', () => {
  it('is short', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('holds every test command CI runs, as CI runs it', () => {
    const ci = fs.readFileSync(path.join(root, '.ci/run'), 'utf8');
    // The commands of .ci/run that a developer runs too (installing and checking the machine aside).
    const commands = ci
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => /^(CRASH_KILLS=\d+ )?npm (test|run [\w:]+)$/.test(line));
    expect(commands).toEqual(expect.arrayContaining(['npm test', 'npm run test:chain', 'npm run test:e2e']));
    for (const command of commands)
      expect({ command, inReadme: readme.includes(`\n${command} `) || readme.includes(`\n${command}\n`) }).toEqual({
        command,
        inReadme: true,
      });
  });

  it('says how to run Muntly', () => {
    expect(readme).toContain('\nnpm install\n');
    expect(readme).toContain('\nnpm start ');
  });
});

describe('the documentation', () => {
  const files = [path.join(root, 'README.md'), ...markdownFiles(path.join(root, 'docs'))];

  it.each(files.map((file) => [path.relative(root, file), file]))('%s links only to what exists', (_name, file) => {
    const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [relative, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = relative ? path.resolve(path.dirname(file), relative) : file;
      if (!fs.existsSync(resolved)) {
        broken.push(target!);
        continue;
      }
      if (anchor && resolved.endsWith('.md')) {
        const headings = [...fs.readFileSync(resolved, 'utf8').matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
          anchorOf(heading!),
        );
        if (!headings.includes(anchor)) broken.push(target!);
      }
    }
    expect(broken).toEqual([]);
  });

  it('cites no file outside the repository', () => {
    const outside = files
      .filter((file) => /\.\.\/shared\/|DESIGN\.md|product-spec/.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(outside).toEqual([]);
  });
});
