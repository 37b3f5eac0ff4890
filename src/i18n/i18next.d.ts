/**
 * Types every translation key from the English sources: `t('pages.home.titel')` or a key
 * missing from locales/en is a type error. Type-only imports: nothing here reaches a bundle.
 */
import 'i18next';
import type auth from '../../locales/en/auth.json';
import type common from '../../locales/en/common.json';
import type currencies from '../../locales/en/currencies.json';
import type errors from '../../locales/en/errors.json';
import type exchange from '../../locales/en/exchange.json';
import type faucet from '../../locales/en/faucet.json';
import type home from '../../locales/en/home.json';
import type identity from '../../locales/en/identity.json';
import type info from '../../locales/en/info.json';
import type legal from '../../locales/en/legal.json';
import type notify from '../../locales/en/notify.json';
import type ops from '../../locales/en/ops.json';
import type proof from '../../locales/en/proof.json';
import type support from '../../locales/en/support.json';
import type wallet from '../../locales/en/wallet.json';

export type Resources = {
  common: typeof common;
  home: typeof home;
  exchange: typeof exchange;
  wallet: typeof wallet;
  identity: typeof identity;
  faucet: typeof faucet;
  auth: typeof auth;
  info: typeof info;
  legal: typeof legal;
  notify: typeof notify;
  ops: typeof ops;
  proof: typeof proof;
  support: typeof support;
  errors: typeof errors;
  currencies: typeof currencies;
};

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    returnNull: false;
    resources: Resources;
  }
}
