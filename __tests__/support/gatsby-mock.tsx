import * as React from 'react';

/** Gatsby's runtime is not available under jest: Link becomes a plain anchor. */
type LinkProps = React.ComponentProps<'a'> & {
  to: string;
  activeClassName?: string;
  partiallyActive?: boolean;
};
export function Link({ to, activeClassName: _active, partiallyActive: _partial, ...rest }: LinkProps) {
  return <a href={to} {...rest} />;
}
export const graphql = () => '';
export const navigate = jest.fn();
export const withPrefix = (path: string) => path;
