import { FEES, feeDisplayOptions, orderTypesAt } from '../fees';

describe('fee display options', () => {
  it('runs from 0 % to 3 % in 0.25 % steps, each also with a 2.00 EUR minimum', () => {
    const options = feeDisplayOptions();
    expect(options).toHaveLength(26);
    expect(options.filter((o) => o.minimumEurMinor === 0n).map((o) => o.basisPoints)).toEqual(
      Array.from({ length: 13 }, (_, i) => i * 25),
    );
    expect(options.filter((o) => o.minimumEurMinor === 200n).map((o) => o.basisPoints)).toEqual(
      Array.from({ length: 13 }, (_, i) => i * 25),
    );
  });

  it('contains every fee Muntly charges, and says which order type uses which level', () => {
    const options = feeDisplayOptions();
    for (const rule of Object.values(FEES))
      expect(options).toContainEqual({ basisPoints: rule.basisPoints, minimumEurMinor: rule.minimumEurMinor });
    expect(orderTypesAt({ basisPoints: 150, minimumEurMinor: 200n })).toEqual(['buy']);
    expect(orderTypesAt({ basisPoints: 150, minimumEurMinor: 0n })).toEqual(['sell']);
    expect(orderTypesAt({ basisPoints: 50, minimumEurMinor: 0n })).toEqual(['swap']);
    expect(orderTypesAt({ basisPoints: 300, minimumEurMinor: 0n })).toEqual([]);
  });
});
