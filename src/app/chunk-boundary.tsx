import * as React from 'react';

/**
 * Around a part of a page that loads in its own chunk (React.lazy): if the chunk cannot be
 * fetched (offline, a deploy replaced it), `fallback` shows instead of a blank page.
 */
export class ChunkBoundary extends React.Component<
  { fallback: React.ReactNode; children: React.ReactNode },
  { failed: boolean }
> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
