/** @jest-environment node */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The design tokens (src/styles/tokens.css) in both themes pass WCAG 2.1 AA contrast: 4.5:1 for
 * text, 3:1 for the borders of controls and the focus ring. The luminance formula is WCAG's own.
 */
const root = join(__dirname, '..', '..', '..');
const tokensCss = readFileSync(join(root, 'src/styles/tokens.css'), 'utf8');

function declarations(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of block.matchAll(/(--[\w-]+)\s*:\s*([^;]+);/g)) out[m[1]] = m[2].trim();
  return out;
}

function themes(): { light: Record<string, string>; dark: Record<string, string> } {
  const darkAt = tokensCss.indexOf('@media (prefers-color-scheme: dark)');
  if (darkAt < 0) throw new Error('tokens.css has no dark theme');
  const light = declarations(tokensCss.slice(0, darkAt));
  return { light, dark: { ...light, ...declarations(tokensCss.slice(darkAt)) } };
}

function rgb(hex: string): [number, number, number] {
  const m = /^#([0-9a-f]{6})$/i.exec(hex);
  if (!m) throw new Error(`not a #rrggbb colour: ${hex}`);
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const textPairs: [string, string][] = [
  ['text', 'bg'],
  ['text', 'surface'],
  ['text', 'surface-raised'],
  ['text-muted', 'bg'],
  ['text-muted', 'surface'],
  ['text-muted', 'surface-raised'],
  ['link', 'bg'],
  ['link', 'surface'],
  ['primary', 'bg'],
  ['primary', 'surface'],
  ['primary-contrast', 'primary'],
  ['accent-contrast', 'accent'],
  ['danger-contrast', 'danger'],
  ['success', 'bg'],
  ['success', 'surface'],
  ['danger', 'bg'],
  ['danger', 'surface'],
  ['info', 'bg'],
  ['warning', 'warning-bg'],
  ['text', 'warning-bg'],
  ['text', 'success-bg'],
  ['text', 'danger-bg'],
  ['text', 'info-bg'],
  ['text', 'code-bg'],
  ['banner-text', 'banner-bg'],
  // The local identity provider's pages (server/src/dev/idp.css): a raised card on the surface.
  ['link', 'surface-raised'],
  ['primary', 'surface-raised'],
  ['danger', 'danger-bg'],
];
const controlPairs: [string, string][] = [
  ['border-control', 'bg'],
  ['focus', 'bg'],
  ['focus', 'surface'],
  ['primary', 'bg'],
  ['success', 'bg'],
  ['danger', 'bg'],
  ['chart-line', 'bg'],
  ['border-control', 'surface-raised'],
  ['focus', 'surface-raised'],
];

describe.each(['light', 'dark'] as const)('the %s theme', (name) => {
  const theme = themes()[name];
  const colour = (role: string) => {
    const value = theme[`--color-${role}`];
    if (!value) throw new Error(`--color-${role} is not defined`);
    return value;
  };

  test.each(textPairs)('%s on %s is readable text (at least 4.5:1)', (fg, bg) => {
    expect(contrast(colour(fg), colour(bg))).toBeGreaterThanOrEqual(4.5);
  });

  test.each(controlPairs)('%s against %s is a visible control edge (at least 3:1)', (fg, bg) => {
    expect(contrast(colour(fg), colour(bg))).toBeGreaterThanOrEqual(3);
  });
});

test('the dark theme changes the page colours and the page declares both schemes', () => {
  const { light, dark } = themes();
  expect(light['--color-bg']).not.toBe(dark['--color-bg']);
  expect(light['--color-text']).not.toBe(dark['--color-text']);
  expect(tokensCss).toMatch(/color-scheme:\s*light dark/);
});

describe('the stylesheets', () => {
  const cssFiles = [
    join(root, 'src/styles/global.css'),
    // The local identity provider's login pages use the same tokens.
    join(root, 'server/src/dev/idp.css'),
    ...readdirSync(join(root, 'src/features'), { withFileTypes: true }).flatMap((d) =>
      d.isDirectory()
        ? readdirSync(join(root, 'src/features', d.name))
            .filter((f) => f.endsWith('.css'))
            .map((f) => join(root, 'src/features', d.name, f))
        : [],
    ),
  ];
  const defined = new Set(Object.keys(themes().light));

  test.each(cssFiles.map((f) => [f.slice(root.length + 1), f]))(
    '%s follows the theme: no fixed colours, only defined tokens',
    (_name, file) => {
      const css = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      expect(css.match(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/gi) ?? []).toEqual([]);
      const used = [...css.matchAll(/var\((--[\w-]+)/g)].map((m) => m[1]);
      expect(used.filter((v) => !defined.has(v))).toEqual([]);
    },
  );
});
