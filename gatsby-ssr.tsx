import * as React from 'react';
import { consentDefaultsScript } from './src/app/consent';
import { HydrationPart } from './src/app/page-part';
import { gaTrackingId, placeholderTrackingId } from './src/config';
import type { GatsbySSR } from 'gatsby';

export const onRenderBody: GatsbySSR['onRenderBody'] = ({ setHeadComponents }) => {
  setHeadComponents([
    <script key="muntly-consent-defaults" dangerouslySetInnerHTML={{ __html: consentDefaultsScript() }} />,
    // Without JavaScript there is no analytics to consent to, and the banner's buttons could not close it.
    <noscript key="muntly-noscript">
      <style>{'.cookie-banner{display:none}'}</style>
    </noscript>,
  ]);
};

/**
 * Consent defaults must run before gtag's `config` call (consent mode), so they move to the top
 * of the head. With the local placeholder id, Google's script is not loaded at all: gtag still
 * records every call in window.dataLayer, which is what the tests read.
 */
export const onPreRenderHTML: GatsbySSR['onPreRenderHTML'] = ({ getHeadComponents, replaceHeadComponents }) => {
  const components = getHeadComponents() as React.ReactElement[];
  const key = (c: React.ReactElement) => String(c?.key ?? '');
  const consent = components.filter((c) => key(c) === 'muntly-consent-defaults');
  const placeholder = gaTrackingId === placeholderTrackingId;
  const dropped = new Set(['gatsby-plugin-google-gtag', 'preconnect-google-gtag', 'dns-prefetch-google-gtag']);
  const rest = components.filter((c) => key(c) !== 'muntly-consent-defaults' && !(placeholder && dropped.has(key(c))));
  replaceHeadComponents([...consent, ...rest]);
};

/** Every page hydrates as a part of its own (app/page-part.tsx); the same in gatsby-browser. */
export const wrapPageElement: GatsbySSR['wrapPageElement'] = ({ element }) => <HydrationPart>{element}</HydrationPart>;
