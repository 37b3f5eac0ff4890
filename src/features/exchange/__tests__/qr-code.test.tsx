import '../../../../__tests__/support/polyfills';
import { act, fireEvent, screen, within } from '@testing-library/react';
import jsQR from 'jsqr';
import QRCode from 'qrcode';
import * as React from 'react';
import { epcPayload } from '#domain/epc';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { Confirmation } from '../components/confirmation';
import { QrCode, qrPath, QUIET_ZONE } from '../components/qr-code';
import { ORDER } from './fetch-mock';
import type { Order } from '../api/types';

const de = loadResources('de').exchange as any;
const en = loadResources('en').exchange as any;

/** The dark modules back out of the SVG path. */
function darkModules(d: string): Set<string> {
  return new Set(
    [...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${Number(m[2]) - QUIET_ZONE},${Number(m[1]) - QUIET_ZONE}`),
  );
}

describe('QR codes', () => {
  const payload = epcPayload({
    bic: 'COBADEFFXXX',
    beneficiary: 'Muntly',
    iban: 'DE89 3704 0044 0532 0130 00',
    amountEur: '80.00',
    reason: 'ABCD-EFGH',
  });

  it("leaves the amount empty for a deposit of the payer's choosing (the deposit page's GiroCode)", () => {
    const deposit = epcPayload({
      bic: 'COBADEFFXXX',
      beneficiary: 'Muntly GmbH',
      iban: 'DE89370400440532013000',
      amountEur: '',
      reason: 'DEPOSIT7KQ2M9',
    }).split('\n');
    expect(deposit[7]).toBe('');
    expect(deposit[10]).toBe('DEPOSIT7KQ2M9');
  });

  it('draws exactly the module matrix of the qrcode package, at error correction level M (EPC069-12)', () => {
    const { modules, errorCorrectionLevel } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
    expect(errorCorrectionLevel.bit).toBe(QRCode.create('x', { errorCorrectionLevel: 'M' }).errorCorrectionLevel.bit);
    const expected = new Set<string>();
    for (let r = 0; r < modules.size; r++)
      for (let c = 0; c < modules.size; c++) if (modules.get(r, c)) expected.add(`${r},${c}`);
    const { size, d } = qrPath(payload);
    expect(size).toBe(modules.size + 2 * QUIET_ZONE);
    expect(darkModules(d)).toEqual(expected);
  });

  it('reads back, with a decoder of its own (jsQR), as exactly the EPC payload, which ends without a line feed', () => {
    const { size, d } = qrPath(payload);
    // The SVG path rasterised at 4 pixels per module, quiet zone included, as a camera would see it.
    const scale = 4;
    const width = size * scale;
    const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
    for (const [x, y] of [...d.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => [Number(m[1]), Number(m[2])] as const)) {
      for (let dy = 0; dy < scale; dy++) {
        for (let dx = 0; dx < scale; dx++) {
          const at = ((y * scale + dy) * width + x * scale + dx) * 4;
          pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
        }
      }
    }
    const decoded = jsQR(pixels, width, width);
    expect(decoded?.data).toBe(payload);
    expect(decoded!.data.endsWith('\n')).toBe(false);
    expect(decoded!.data.split('\n')).toEqual([
      'BCD',
      '002',
      '1',
      'SCT',
      'COBADEFFXXX',
      'Muntly',
      'DE89370400440532013000',
      'EUR80.00',
      '',
      '',
      'ABCD-EFGH',
    ]);
  });

  it('is an SVG image with an accessible name', () => {
    renderInLanguage(<QrCode text="bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" label="QR code of the address bc1q…" />);
    const svg = screen.getByRole('img', { name: 'QR code of the address bc1q…' });
    expect(svg.tagName.toLowerCase()).toBe('svg');
    expect(svg.querySelector('path')!.getAttribute('d')).toBe(qrPath('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq').d);
  });
});

describe('Confirmation', () => {
  it('puts what to do first: the transfer, each value with a copy button that copies it whole, and the GiroCode of the API’s EPC payload (buy by bank)', async () => {
    const writeText = jest.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderInLanguage(
      <Confirmation order={ORDER as unknown as Order} email="ada@example.com" onAnother={() => undefined} />,
      'de',
    );
    expect(screen.getByRole('heading', { name: de.confirm.heading.buy })).toHaveFocus();
    const next = screen.getByRole('region', { name: de.confirm.next });
    // What to do comes before the reference to keep, the status and the details.
    expect(
      next.compareDocumentPosition(screen.getByTestId('order-reference')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(
      next.compareDocumentPosition(screen.getByRole('list', { name: de.order.stepper })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(
      within(next).getByText(
        /Überweisen Sie jetzt 80,00\s€ auf das unten stehende Konto, mit ABCD-EFGH als Verwendungszweck/,
      ),
    ).toBeInTheDocument();
    const value = (label: string) => within(next).getByText(label, { selector: 'dt' }).nextElementSibling!;
    expect(value(de.confirm.payment.amount)).toHaveTextContent(/^80,00\s€/);
    expect(value(de.confirm.payment.iban)).toHaveTextContent('DE89 3704 0044 0532 0130 00');
    expect(value(de.confirm.payment.beneficiary)).toHaveTextContent('Muntly');
    expect(value(de.confirm.payment.reason)).toHaveTextContent('ABCD-EFGH');
    expect(value(de.confirm.payment.bic)).toHaveTextContent('COBADEFFXXX');
    expect(value(de.confirm.payment.methods)).toHaveTextContent(
      'Banküberweisung (SEPA), Echtzeitüberweisung (SEPA Instant)',
    );
    // Each copy button names what it copies and copies what a banking app wants: the amount as German writes it, the IBAN without its spaces.
    const copies: [string, string][] = [
      ['Betrag kopieren', '80,00'],
      ['IBAN kopieren', 'DE89370400440532013000'],
      ['Empfänger kopieren', 'Muntly'],
      ['Verwendungszweck kopieren', 'ABCD-EFGH'],
      ['BIC kopieren', 'COBADEFFXXX'],
    ];
    for (const [name, copied] of copies) {
      await act(async () => fireEvent.click(within(next).getByRole('button', { name })));
      expect(writeText).toHaveBeenLastCalledWith(copied);
    }
    expect(within(next).getByRole('button', { name: 'BIC kopieren' }).nextElementSibling).toHaveTextContent('Kopiert');
    const qr = within(next).getByRole('img', {
      name: /^QR-Code für Ihre Banking-App: Überweisung von 80,00\s€ an Muntly, Verwendungszweck ABCD-EFGH$/,
    });
    expect(qr.querySelector('path')!.getAttribute('d')).toBe(qrPath(ORDER.paymentDetails.epcPayload).d);
    // The reference to keep has its own copy button.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Auftragsreferenz kopieren' })));
    expect(writeText).toHaveBeenLastCalledWith('ABCD-EFGH-IJKL-MNOP');
    // The details, grouped, and where the crypto goes.
    const order = screen.getByRole('region', { name: de.order.groups.order });
    expect(within(order).getByText(/^1 BTC ≈ 80\.000,00\s€$/)).toBeInTheDocument();
    const delivery = screen.getByRole('region', { name: de.order.groups.delivery });
    expect(within(delivery).getByText(`Anschließend senden wir die BTC an ${ORDER.address}.`)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: de.confirm.follow })).toHaveAttribute(
      'href',
      '/de/exchange/order-history/',
    );
  });

  it('asks a seller to send the crypto to the receiving address, with the XRP tag shown apart', () => {
    const order = {
      ...ORDER,
      type: 'sell',
      currencyFrom: 'XRP',
      currencyTo: 'EUR',
      amount: '40',
      address: 'DE89370400440532013000',
      paymentMethod: null,
      paymentDetails: null,
      receiving: { currency: 'XRP', address: 'rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY', tag: '4711', amount: '40' },
    } as unknown as Order;
    renderInLanguage(<Confirmation order={order} email="ada@example.com" onAnother={() => undefined} />);
    expect(screen.getByRole('heading', { name: en.confirm.heading.sell })).toBeInTheDocument();
    const next = screen.getByRole('region', { name: en.confirm.next });
    expect(
      within(next).getByText('Now send 40 XRP to the address below. Processing starts once it has arrived.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('We then pay the euros to your bank account DE89 3704 0044 0532 0130 00.'),
    ).toBeInTheDocument();
    expect(
      within(next).getByRole('img', { name: 'QR code of the address rPEPPER7kfTD9w2To4CQk6UCfuHM9c6GDY' }),
    ).toBeInTheDocument();
    expect(within(next).getByText('4711', { selector: '.tag' })).toBeInTheDocument();
    expect(within(next).getByText(/Always send with destination tag 4711/)).toBeInTheDocument();
    // Amount, address and tag each copy on their own; there is no bank transfer to make.
    for (const name of ['Copy amount', 'Copy address', 'Copy destination tag'])
      expect(within(next).getByRole('button', { name })).toBeInTheDocument();
    expect(within(next).queryByText(en.confirm.payment.iban, { selector: 'dt' })).toBeNull();
  });

  it('has its own texts for the own-wallet variants', () => {
    const order = {
      ...ORDER,
      type: 'swap',
      currencyFrom: 'BTC',
      currencyTo: 'ETH',
      amount: '0.01',
      address: null,
      sendToMyWallet: true,
      useMyWallet: true,
      paymentMethod: null,
      paymentDetails: null,
    } as unknown as Order;
    renderInLanguage(<Confirmation order={order} email="ada@example.com" onAnother={() => undefined} />);
    expect(screen.getByRole('heading', { name: en.confirm.heading.swap })).toBeInTheDocument();
    expect(
      screen.getByText('We take 0.01 BTC from your Muntly wallet: processing starts in a moment, nothing else to do.'),
    ).toBeInTheDocument();
    expect(screen.getByText(en.confirm.delivery.wallet)).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    // Nothing to pay by hand: no "what to do" block, and no "Send to my wallet: No"-style rows either.
    expect(screen.queryByRole('region', { name: en.confirm.next })).toBeNull();
    expect(screen.getByRole('region', { name: en.order.groups.delivery })).toHaveTextContent(
      en.confirm.delivery.wallet,
    );
  });
});
