import { productFigures } from '../figures';
import { formatMoney } from '../format';

describe('the product figures formatted at build time', () => {
  it('are the domain rules written for the language, exactly as the page would format them', () => {
    expect(productFigures('en')).toEqual({
      firstOrderLimit: '€100.00',
      orderLimit: '€30,000.00',
      mobileLimit: '€1,000.00',
      idLimit: '€3,000.00',
      buyFee: '1.50%',
      buyMinimum: '€2.00',
      sellFee: '1.50%',
      swapFee: '0.50%',
      legalTextsUpdated: '22 November 2026',
    });
    const de = productFigures('de');
    expect(de.orderLimit).toBe(formatMoney('30000.00', 'EUR', 'de'));
    expect(de.legalTextsUpdated).toBe('22. November 2026');
  });
});
