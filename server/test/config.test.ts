/**
 * @jest-environment node
 */
import { loadConfig } from '../src/config';

describe('configuration', () => {
  it('runs locally with no settings at all: embedded database and local identity provider', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      PORT: 8000,
      IDP_PORT: 4001,
      localIdp: true,
      authIssuer: 'http://localhost:4001/',
      siteOrigin: 'http://localhost:8000',
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('names each missing production setting', () => {
    expect(() => loadConfig({ AUTH0_DOMAIN: 'muntly.eu.auth0.com' })).toThrow(
      /AUTH0_CLIENT_ID[\s\S]*AUTH0_AUDIENCE[\s\S]*DATABASE_URL/,
    );
  });

  it('names a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ AUTH0_DOMAIN: 'https://muntly.eu.auth0.com/' })).toThrow(/AUTH0_DOMAIN/);
  });

  it('protects accounts by default (issue 19), and production signs security links with its own secret', () => {
    expect(loadConfig({})).toMatchObject({
      ADDRESS_HOLD_HOURS: 24,
      SEND_COOLDOWN_HOURS: 24,
      UNFREEZE_COOLDOWN_HOURS: 24,
      SEND_MAX_AUTH_AGE_MINUTES: 15,
      SEND_SECOND_FACTOR_ABOVE_EUR: '1000',
    });
    const { SECURITY_LINK_SECRET: _secret, ...withoutSecret } = production;
    expect(() => loadConfig(withoutSecret)).toThrow(/SECURITY_LINK_SECRET: is required when AUTH0_DOMAIN is set/);
    expect(() => loadConfig({ SECURITY_LINK_SECRET: 'short' })).toThrow(
      /SECURITY_LINK_SECRET: must be at least 32 characters/,
    );
    // The secret of the provider's sign-in reports: none turns their endpoint off; a short one is refused.
    expect(loadConfig({}).SIGN_IN_REPORT_SECRET).toBeUndefined();
    expect(() => loadConfig({ SIGN_IN_REPORT_SECRET: 'short' })).toThrow(
      /SIGN_IN_REPORT_SECRET: must be at least 32 characters/,
    );
    expect(() => loadConfig({ SEND_SECOND_FACTOR_ABOVE_EUR: '1e3' })).toThrow(/SEND_SECOND_FACTOR_ABOVE_EUR/);
  });

  it('off mainnet, the faucet reads its blocks from Muntly’s Bitcoin node or an explorer of that network, never mainnet’s', () => {
    const testnet = { CHAIN_NETWORK: 'testnet', CHAIN_PAYOUTS: 'signer' };
    expect(() => loadConfig(testnet)).toThrow(
      /CHAIN_BLOCKS_URL: is Bitcoin mainnet's explorer, but CHAIN_NETWORK is testnet/,
    );
    expect(loadConfig({ ...testnet, CHAIN_BLOCKS_URL: 'https://blockstream.info/testnet/api' }).CHAIN_BLOCKS_URL).toBe(
      'https://blockstream.info/testnet/api',
    );
    expect(() => loadConfig({ ...testnet, CHAIN_RPC_URL_BTC: 'http://u:p@127.0.0.1:18332' })).not.toThrow();
    // Local mode's simulated chain has blocks of its own.
    expect(() => loadConfig({ CHAIN_NETWORK: 'regtest' })).not.toThrow();
  });

  it('reads TRUST_PROXY as a hop count or a list of proxy addresses, and refuses anything else', () => {
    expect(loadConfig({}).TRUST_PROXY).toBeUndefined();
    expect(loadConfig({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).TRUST_PROXY).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => loadConfig({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY: must be a hop count/);
  });

  it('derives the Auth0 issuer with its trailing slash', () => {
    const config = loadConfig({ ...production });
    expect(config).toMatchObject({
      localIdp: false,
      authIssuer: 'https://muntly.eu.auth0.com/',
      authAudience: 'https://api.muntly.eu',
    });
  });

  it('switches buying and selling off in production unless told otherwise, as the spec states; on locally, so the flows can be tried', () => {
    expect(loadConfig({}).BUY_SELL_ENABLED).toBe(true);
    expect(loadConfig({ BUY_SELL_ENABLED: 'false' }).BUY_SELL_ENABLED).toBe(false);
    expect(loadConfig(production).BUY_SELL_ENABLED).toBe(false);
    expect(loadConfig({ ...production, BUY_SELL_ENABLED: 'true' }).BUY_SELL_ENABLED).toBe(true);
    expect(() => loadConfig({ BUY_SELL_ENABLED: 'yes' })).toThrow(/BUY_SELL_ENABLED/);
  });

  it('pays through the simulation only locally: production names its payout executors or does not start', () => {
    expect(loadConfig({})).toMatchObject({ CHAIN_PAYOUTS: 'simulated', BANK_PAYOUTS: 'simulated' });
    const { CHAIN_PAYOUTS: _chain, BANK_PAYOUTS: _bank, ...unnamed } = production;
    expect(() => loadConfig(unnamed)).toThrow(
      /CHAIN_PAYOUTS: must be "signer" in production[\s\S]*BANK_PAYOUTS: must be "external" in production/,
    );
    expect(() => loadConfig({ ...production, CHAIN_PAYOUTS: 'simulated' })).toThrow(/CHAIN_PAYOUTS/);
    expect(() => loadConfig({ ...production, BANK_PAYOUTS: 'simulated' })).toThrow(/BANK_PAYOUTS/);
    expect(() => loadConfig({ ...production, PAYOUT_BOOKING_DELAY_MS: '100' })).toThrow(
      /PAYOUT_BOOKING_DELAY_MS: is for the crash suite only/,
    );
    expect(() => loadConfig({ CHAIN_PAYOUTS: 'bitcoind' })).toThrow(/CHAIN_PAYOUTS/);
    expect(loadConfig(production)).toMatchObject({ CHAIN_PAYOUTS: 'signer', BANK_PAYOUTS: 'external' });
  });

  it('shows the sample operator only while nobody is named; production does not start without one', () => {
    expect(loadConfig({}).operator).toEqual({ sample: true });
    const { OPERATOR_NAME: _name, OPERATOR_ADDRESS: _address, OPERATOR_EMAIL: _email, ...nameless } = production;
    expect(() => loadConfig(nameless)).toThrow(/OPERATOR_NAME: is required when AUTH0_DOMAIN is set \(production\)/);
    expect(() => loadConfig({ ...nameless, OPERATOR_NAME: '' })).toThrow(/OPERATOR_NAME: is required/);
  });

  it('reads the operator from OPERATOR_*, the required fields together, the others when given', () => {
    expect(loadConfig(production).operator).toEqual({
      sample: false,
      name: 'Muntly GmbH',
      address: 'Chausseestraße 1, 10115 Berlin, Germany',
      email: 'legal@muntly.eu',
    });
    const full = loadConfig({
      OPERATOR_NAME: ' Muntly GmbH ',
      OPERATOR_ADDRESS: 'Chausseestraße 1, 10115 Berlin, Germany',
      OPERATOR_EMAIL: 'legal@muntly.eu',
      OPERATOR_PHONE: '+49 30 1234567',
      OPERATOR_REPRESENTATIVES: 'Erika Mustermann',
      OPERATOR_REGISTRATION: 'Amtsgericht Charlottenburg, HRB 123456 B',
      OPERATOR_VAT_ID: 'DE123456789',
      OPERATOR_SUPERVISOR: 'BaFin, register of crypto-asset service providers no. 123456',
      OPERATOR_ADDRESS_EXTRA: 'ignored',
    });
    expect(full.operator).toEqual({
      sample: false,
      name: 'Muntly GmbH',
      address: 'Chausseestraße 1, 10115 Berlin, Germany',
      email: 'legal@muntly.eu',
      phone: '+49 30 1234567',
      representatives: 'Erika Mustermann',
      registration: 'Amtsgericht Charlottenburg, HRB 123456 B',
      vatId: 'DE123456789',
      supervisor: 'BaFin, register of crypto-asset service providers no. 123456',
    });
    // Half an identity is refused, locally too: the imprint would name a company nobody can reach.
    expect(() => loadConfig({ OPERATOR_NAME: 'Muntly GmbH' })).toThrow(
      /OPERATOR_ADDRESS: is required when OPERATOR_NAME is set[\s\S]*OPERATOR_EMAIL: is required/,
    );
    expect(() => loadConfig({ OPERATOR_VAT_ID: 'DE123456789' })).toThrow(
      /OPERATOR_NAME: is required when OPERATOR_VAT_ID is set/,
    );
    expect(() => loadConfig({ ...production, OPERATOR_EMAIL: 'legal at muntly' })).toThrow(
      /OPERATOR_EMAIL: must be an email address/,
    );
  });

  it("pays to the operator's legal name: BANK_BENEFICIARY only spells it, and another name stops the start (Verification of Payee)", () => {
    // Named once: the payee is the operator; the payouts file's payer too (app.ts hands config.bank on).
    expect(loadConfig(production).bank).toEqual({
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      beneficiary: 'Muntly GmbH',
      sample: true,
    });
    expect(loadConfig({ ...production, BANK_IBAN: 'DE02120300000000202051' }).bank).toEqual({
      iban: 'DE02120300000000202051',
      bic: 'COBADEFFXXX',
      beneficiary: 'Muntly GmbH',
      sample: false,
    });
    // The bank's spelling of the same name (case, accents, spaces) is taken.
    expect(
      loadConfig({ ...production, OPERATOR_NAME: 'Müntly GmbH', BANK_BENEFICIARY: 'MUENTLY  GMBH' }).bank.beneficiary,
    ).toBe('MUENTLY  GMBH');
    expect(
      loadConfig({ ...production, OPERATOR_NAME: 'Müntly GmbH', BANK_BENEFICIARY: 'Muntly GmbH' }).bank.beneficiary,
    ).toBe('Muntly GmbH');
    // Another company's name, or the old brand alone, is refused.
    expect(() => loadConfig({ ...production, BANK_BENEFICIARY: 'Muntly' })).toThrow(
      /BANK_BENEFICIARY: must be the operator's legal name \(OPERATOR_NAME "Muntly GmbH"\)/,
    );
    expect(() => loadConfig({ ...production, BANK_BENEFICIARY: 'Other Payments Ltd' })).toThrow(/BANK_BENEFICIARY/);
    // Locally, with nobody named: the sample operator's name, marked as a sample like the sample IBAN.
    expect(loadConfig({}).bank).toEqual({
      iban: 'DE89370400440532013000',
      bic: 'COBADEFFXXX',
      beneficiary: 'Sample Operator Ltd',
      sample: true,
    });
    expect(() => loadConfig({ BANK_BENEFICIARY: 'Muntly' })).toThrow(/BANK_BENEFICIARY: is set without OPERATOR_NAME/);
  });

  it("reads the operator's licence as a crypto-asset service provider from OPERATOR_CASP", () => {
    expect(
      loadConfig({ ...production, OPERATOR_CASP: 'CASP licence no. 123456, granted by BaFin' }).operator,
    ).toMatchObject({ casp: 'CASP licence no. 123456, granted by BaFin' });
  });

  it('reads a block explorer per currency from EXPLORER_URL_<CURRENCY>, none by default, and refuses one the site could not link', () => {
    expect(loadConfig({}).explorers).toEqual({});
    expect(loadConfig({ EXPLORER_URL_BTC: 'https://mempool.space/tx/{txid}', EXPLORER_URL_LTC: '' }).explorers).toEqual(
      { BTC: 'https://mempool.space/tx/{txid}' },
    );
    expect(() => loadConfig({ EXPLORER_URL_BTC: 'https://mempool.space/tx/' })).toThrow(
      /EXPLORER_URL_BTC: must be an http\(s\) URL with \{txid\}/,
    );
    expect(() => loadConfig({ EXPLORER_URL_BTC: 'javascript:alert({txid})' })).toThrow(/EXPLORER_URL_BTC/);
    expect(() => loadConfig({ EXPLORER_URL_EUR: 'https://bank.example/{txid}' })).toThrow(
      /EXPLORER_URL_EUR: EUR is not a listed crypto currency/,
    );
  });
});

const production = {
  AUTH0_DOMAIN: 'muntly.eu.auth0.com',
  AUTH0_CLIENT_ID: 'c',
  AUTH0_AUDIENCE: 'https://api.muntly.eu',
  DATABASE_URL: 'postgres://db/muntly',
  CHAIN_PAYOUTS: 'signer',
  BANK_PAYOUTS: 'external',
  OPERATOR_NAME: 'Muntly GmbH',
  OPERATOR_ADDRESS: 'Chausseestraße 1, 10115 Berlin, Germany',
  OPERATOR_EMAIL: 'legal@muntly.eu',
  SECURITY_LINK_SECRET: 'a-production-secret-of-at-least-32-characters',
  BANK_DEBTOR_TOWN: 'Berlin',
  BANK_DEBTOR_COUNTRY: 'DE',
};
