import * as React from 'react';
import { Seo } from './seo';
import type { I18nPageContext, LocalesData } from '../i18n/page-types';
import type { RouteName } from '../i18n/routes';
import type { HeadProps } from 'gatsby';

/** `export const Head = pageHead('fees')`: the localized head of a page. */
export function pageHead(page: RouteName | 'notFound') {
  return function Head(props: HeadProps<LocalesData, I18nPageContext>) {
    return <Seo page={page} {...props} />;
  };
}
