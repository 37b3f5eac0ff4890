import { missingVerifications, requiredVerifications } from '../gates';

describe('verification gates', () => {
  it('needs a verified bank account for the wallet features', () => {
    expect(requiredVerifications({ usesWallet: true })).toEqual(['bank']);
    expect(missingVerifications({ bank: 'step_2' }, { usesWallet: true })).toEqual(['bank']);
    expect(missingVerifications({ bank: 'verified' }, { usesWallet: true })).toEqual([]);
  });

  it('needs mobile above 1,000 EUR a week and ID above 3,000 EUR', () => {
    expect(requiredVerifications({ weeklyEurMinor: 100_000n })).toEqual([]);
    expect(requiredVerifications({ weeklyEurMinor: 100_001n })).toEqual(['mobile']);
    expect(requiredVerifications({ weeklyEurMinor: 300_000n })).toEqual(['mobile']);
    expect(requiredVerifications({ weeklyEurMinor: 300_001n })).toEqual(['mobile', 'id']);
    expect(missingVerifications({ mobile: 'verified' }, { weeklyEurMinor: 500_000n })).toEqual(['id']);
  });

  it('needs business verification when paying from a business account', () => {
    expect(requiredVerifications({ fromBusinessAccount: true })).toEqual(['business']);
    expect(missingVerifications({}, { usesWallet: true, fromBusinessAccount: true, weeklyEurMinor: 0n })).toEqual(['bank', 'business']);
  });
});
