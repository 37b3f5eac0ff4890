import { screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import type { Language } from '#domain/languages';
import type { Operator } from '#domain/operator';
import type { renderInLanguage as RenderInLanguage } from '../../../../__tests__/support/render';
import type { Footer as FooterComponent } from '../../../app/footer';
import type { Imprint as ImprintComponent } from '../components/imprint';
import type { LegalDocument as LegalDocumentComponent } from '../components/legal-document';

/**
 * The imprint, the footer and the legal texts name the operator the server is configured with
 * (GET /api/operator); with none configured (local mode) they show sample values, marked as such.
 */
type Parts = {
  renderInLanguage: typeof RenderInLanguage;
  Imprint: typeof ImprintComponent;
  Footer: typeof FooterComponent;
  LegalDocument: typeof LegalDocumentComponent;
};

// Each test loads the components afresh (below), @testing-library/react with them: its cleanup runs here.
process.env.RTL_SKIP_AUTO_CLEANUP = 'true';
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
let cleanups: (() => void)[] = [];
/** A fresh module registry per test: the site remembers the server's answer for later pages. */
function fresh(): Parts {
  let parts: Parts | undefined;
  jest.isolateModules(() => {
    cleanups.push(jest.requireActual('@testing-library/react').cleanup);
    parts = {
      renderInLanguage: jest.requireActual('../../../../__tests__/support/render').renderInLanguage,
      Imprint: jest.requireActual('../components/imprint').Imprint,
      Footer: jest.requireActual('../../../app/footer').Footer,
      LegalDocument: jest.requireActual('../components/legal-document').LegalDocument,
    };
  });
  return parts!;
}

function serverSays(operator: Operator | 'offline') {
  (globalThis as { fetch: unknown }).fetch = jest.fn(async (url: string) => {
    if (!url.endsWith('/api/operator')) return { ok: false, status: 404, json: async () => ({}) };
    if (operator === 'offline') throw new TypeError('Failed to fetch');
    return { ok: true, status: 200, json: async () => operator };
  });
}

const muntlyGmbh: Operator = {
  sample: false,
  name: 'Muntly GmbH',
  address: 'Chausseestraße 1, 10115 Berlin, Germany',
  representatives: 'Erika Mustermann',
  email: 'legal@muntly.eu',
  phone: '+49 30 1234567',
  registration: 'Amtsgericht Charlottenburg, HRB 123456 B',
  vatId: 'DE123456789',
  supervisor: 'BaFin',
};

const definitions = () =>
  Object.fromEntries(
    [...document.querySelectorAll('dl.imprint-data dt')].map((dt) => [
      dt.textContent,
      dt.nextElementSibling?.textContent,
    ]),
  );

afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups = [];
  delete process.env.MUNTLY_OPERATOR;
});

describe('the imprint', () => {
  it('lists every configured detail the server names, with mail and phone links, and no sample notice', async () => {
    serverSays(muntlyGmbh);
    const { renderInLanguage, Imprint } = fresh();
    renderInLanguage(<Imprint />, 'de');
    await screen.findByText('Muntly GmbH');
    expect(definitions()).toEqual({
      Betreiber: 'Muntly GmbH',
      Anschrift: 'Chausseestraße 1, 10115 Berlin, Germany',
      'Vertreten durch': 'Erika Mustermann',
      'E-Mail': 'legal@muntly.eu',
      Telefon: '+49 30 1234567',
      Registereintrag: 'Amtsgericht Charlottenburg, HRB 123456 B',
      'Umsatzsteuer-Identifikationsnummer': 'DE123456789',
      Aufsichtsbehörde: 'BaFin',
    });
    expect(screen.getByRole('link', { name: 'legal@muntly.eu' })).toHaveAttribute('href', 'mailto:legal@muntly.eu');
    expect(screen.getByRole('link', { name: '+49 30 1234567' })).toHaveAttribute('href', 'tel:+49301234567');
    expect(screen.queryByRole('note')).toBeNull();
    expect(screen.queryByText(/Beispieldaten/)).toBeNull();
  });

  it('leaves out the rows the operator did not configure', async () => {
    serverSays({
      sample: false,
      name: 'Muntly B.V.',
      address: 'Herengracht 1, 1015 BA Amsterdam',
      email: 'info@muntly.nl',
    });
    const { renderInLanguage, Imprint } = fresh();
    renderInLanguage(<Imprint />, 'nl');
    await screen.findByText('Muntly B.V.');
    expect(Object.keys(definitions())).toEqual(['Exploitant', 'Adres', 'E-mail']);
  });

  it.each([
    ['en', 'Sample data — local mode', 'Sample Operator Ltd'],
    ['ru', 'Образец данных — локальный режим', 'Sample Operator Ltd'],
  ] as const)(
    'shows marked sample values in local mode (%s), also while the server cannot be reached',
    async (language: Language, badge, sampleName) => {
      serverSays('offline');
      const { renderInLanguage, Imprint } = fresh();
      renderInLanguage(<Imprint />, language);
      await waitFor(() => expect(global.fetch).toHaveBeenCalled());
      expect(screen.getByRole('note')).toHaveTextContent(badge);
      expect(definitions()).toMatchObject({ [Object.keys(definitions())[0]!]: sampleName });
      expect(screen.getByRole('link', { name: 'operator@muntly.example' })).toBeInTheDocument();
    },
  );

  it('starts from what the build was given, so the prerendered page names the operator before the server answers', () => {
    process.env.MUNTLY_OPERATOR = JSON.stringify(muntlyGmbh);
    (globalThis as { fetch: unknown }).fetch = jest.fn(() => new Promise(() => undefined));
    const { renderInLanguage, Imprint } = fresh();
    renderInLanguage(<Imprint />, 'en');
    expect(definitions()).toMatchObject({ Operator: 'Muntly GmbH', 'VAT ID': 'DE123456789' });
    expect(screen.queryByRole('note')).toBeNull();
  });

  it('lets the server answer replace the build-time operator: one build serves any operator', async () => {
    process.env.MUNTLY_OPERATOR = JSON.stringify(muntlyGmbh);
    serverSays({ sample: true });
    const { renderInLanguage, Imprint } = fresh();
    renderInLanguage(<Imprint />, 'de');
    expect(await screen.findByRole('note')).toHaveTextContent('Beispieldaten – lokaler Modus');
    expect(screen.queryByText('Muntly GmbH')).toBeNull();
  });
});

describe('the footer and the legal texts', () => {
  it('the footer names the operator and links to the imprint', async () => {
    serverSays(muntlyGmbh);
    const { renderInLanguage, Footer } = fresh();
    renderInLanguage(<Footer />, 'de');
    expect(
      await screen.findByText('Muntly wird betrieben von Muntly GmbH, Chausseestraße 1, 10115 Berlin, Germany.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Impressum' })).toHaveAttribute('href', '/de/imprint/');
  });

  it('the footer marks the sample in local mode', async () => {
    serverSays({ sample: true });
    const { renderInLanguage, Footer } = fresh();
    renderInLanguage(<Footer />, 'en');
    await waitFor(() => expect(global.fetch).toHaveBeenCalled());
    expect(screen.getByRole('contentinfo')).toHaveTextContent(
      'Muntly is operated by Sample Operator Ltd, 1 Example Street, 00000 Sample City, Exampleland. Sample data — local mode',
    );
  });

  it('the privacy policy names the controller and the terms the operator, from the same source', async () => {
    serverSays(muntlyGmbh);
    const { renderInLanguage, LegalDocument } = fresh();
    const privacy = renderInLanguage(<LegalDocument doc="privacy_policy" />, 'en');
    expect(
      await screen.findByText(
        /The controller responsible for the personal data described here is Muntly GmbH, Chausseestraße 1, 10115 Berlin, Germany, which operates Muntly/,
      ),
    ).toBeInTheDocument();
    privacy.unmount();
    renderInLanguage(<LegalDocument doc="terms_and_conditions" />, 'fr');
    expect(await screen.findByText(/Muntly est exploité par Muntly GmbH, Chausseestraße 1/)).toBeInTheDocument();
    expect(screen.getByText(/du pays où est établi l’exploitant, Muntly GmbH/)).toBeInTheDocument();
    expect(document.body.textContent).not.toContain('{{');
    expect(screen.queryByText('Données d’exemple — mode local')).toBeNull();
  });

  it('the terms mark the sample operator they name in local mode', async () => {
    serverSays({ sample: true });
    const { renderInLanguage, LegalDocument } = fresh();
    renderInLanguage(<LegalDocument doc="terms_and_conditions" />, 'uk');
    await waitFor(() => expect(global.fetch).toHaveBeenCalled());
    expect(screen.getByText(/Оператор Muntly — Sample Operator Ltd/)).toBeInTheDocument();
    expect(screen.getByText('Зразок даних — локальний режим')).toBeInTheDocument();
  });
});
