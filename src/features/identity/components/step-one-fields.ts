import type { VerificationKind } from '#domain/verification';

/**
 * What step 1 of each kind asks for, without its rules: the page lists a kind's data with it, and
 * the form itself (step-one-form.tsx, with the phone and IBAN rules) loads only when a form is shown.
 */
export type FieldName =
  | 'salutation'
  | 'firstName'
  | 'lastName'
  | 'birthdate'
  | 'nationality'
  | 'email'
  | 'mobile'
  | 'street'
  | 'zip'
  | 'city'
  | 'state'
  | 'country'
  | 'iban'
  | 'beneficiary'
  | 'businessName'
  | 'businessNumber'
  | 'businessCountry';
export type Spec = { name: FieldName; type?: string; autoComplete?: string };

const PERSON: Spec[] = [
  { name: 'salutation' },
  { name: 'firstName', autoComplete: 'given-name' },
  { name: 'lastName', autoComplete: 'family-name' },
  { name: 'birthdate', type: 'date', autoComplete: 'bday' },
  { name: 'nationality' },
  { name: 'email', type: 'email', autoComplete: 'email' },
  { name: 'mobile', type: 'tel', autoComplete: 'tel' },
  { name: 'street', autoComplete: 'address-line1' },
  { name: 'zip', autoComplete: 'postal-code' },
  { name: 'city', autoComplete: 'address-level2' },
  { name: 'state', autoComplete: 'address-level1' },
  { name: 'country', autoComplete: 'country' },
];

/** The fields of step 1 per kind; the rules are the domain's schemas, shared with the API. */
export const STEP_ONE_FIELDS: Record<VerificationKind, Spec[]> = {
  address: PERSON,
  id: PERSON,
  bank: [{ name: 'iban' }, { name: 'beneficiary', autoComplete: 'name' }],
  business: [
    { name: 'businessName', autoComplete: 'organization' },
    { name: 'businessNumber' },
    { name: 'businessCountry' },
  ],
  mobile: [{ name: 'mobile', type: 'tel', autoComplete: 'tel' }],
};
