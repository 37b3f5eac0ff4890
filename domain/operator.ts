/**
 * Who operates Muntly — the company the imprint, the footer, the terms and the privacy policy
 * name (and the controller under the GDPR). It comes from the server's configuration (OPERATOR_*,
 * docs/configuration.md); without OPERATOR_NAME the site shows clearly marked sample values
 * (local mode only: production refuses to start without it, server/src/config.ts).
 * No imports: the footer on every page uses these types and the sample marker.
 */
export type OperatorIdentity = {
  /** The company's full legal name, e.g. "Muntly GmbH". */
  name: string;
  /** The address where it can be served (street, postcode and city, country). */
  address: string;
  /** Who may represent it (managing directors). */
  representatives?: string;
  email: string;
  phone?: string;
  /** The commercial register and the entry's number. */
  registration?: string;
  vatId?: string;
  /** The supervisory authority, and the register where it lists the operator. */
  supervisor?: string;
  /**
   * Its licence or registration as a crypto-asset service provider under MiCA (Regulation (EU)
   * 2023/1114), e.g. "CASP licence no. 123456, granted by BaFin".
   */
  casp?: string;
};

/** The configured operator, or `{ sample: true }` when none is configured (local mode). */
export type Operator = ({ sample: false } & OperatorIdentity) | { sample: true };

/** The environment variable of each field. */
export const OPERATOR_ENV = {
  name: 'OPERATOR_NAME',
  address: 'OPERATOR_ADDRESS',
  representatives: 'OPERATOR_REPRESENTATIVES',
  email: 'OPERATOR_EMAIL',
  phone: 'OPERATOR_PHONE',
  registration: 'OPERATOR_REGISTRATION',
  vatId: 'OPERATOR_VAT_ID',
  supervisor: 'OPERATOR_SUPERVISOR',
  casp: 'OPERATOR_CASP',
} as const satisfies Record<keyof OperatorIdentity, string>;

/** Fields every configured operator must give (§ 5 DDG: name, address, a way to reach it quickly). */
export const REQUIRED_OPERATOR_FIELDS = [
  'name',
  'address',
  'email',
] as const satisfies readonly (keyof OperatorIdentity)[];

/**
 * The operator the environment describes: the server's configuration and the site's build read
 * the same variables. Empty values count as unset; no OPERATOR_NAME means the sample. Checking
 * that the required fields are there is the server configuration's job.
 */
export function operatorFromEnv(env: Readonly<Record<string, unknown>>): Operator {
  const value = (key: keyof OperatorIdentity) => {
    const given = env[OPERATOR_ENV[key]];
    return typeof given === 'string' ? given.trim() || undefined : undefined;
  };
  const name = value('name');
  if (!name) return { sample: true };
  const identity: OperatorIdentity = { name, address: value('address') ?? '', email: value('email') ?? '' };
  for (const key of ['representatives', 'phone', 'registration', 'vatId', 'supervisor', 'casp'] as const) {
    const given = value(key);
    if (given) identity[key] = given;
  }
  return { sample: false, ...identity };
}

/**
 * The account holder's name of Muntly's bank account in local mode, where nobody is named: the
 * sample operator's legal name, one spelling in every language as a company's name is (the payee
 * name a transfer carries, the footer and the imprint all say the same), marked as a sample.
 */
export const SAMPLE_PAYEE_NAME = 'Sample Operator Ltd';

/** The sample's values that read the same in every language (the others are in locales/<lng>/common.json, operator.sample). */
export const SAMPLE_OPERATOR_CONTACT = {
  name: SAMPLE_PAYEE_NAME,
  email: 'operator@muntly.example',
  phone: '+00 000 0000000',
  vatId: 'XX000000000',
} as const;
