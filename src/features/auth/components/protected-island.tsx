import * as React from 'react';
import { AuthIsland } from '../../../app/auth-island';
import { IslandPlaceholder } from '../../../ui/island';
import { AccountSummary } from './account-summary';
import { RequireLogin } from './require-login';

/**
 * The island of a page for logged-in users only (wallet pages, my identity): anonymous visitors
 * are sent to log in and back. Until a page has its own feature, it shows the account summary.
 */
export function ProtectedIsland({ name, children }: { name: string; children?: React.ReactNode }) {
  return (
    <IslandPlaceholder name={name}>
      <AuthIsland>
        <RequireLogin>{children ?? <AccountSummary />}</RequireLogin>
      </AuthIsland>
    </IslandPlaceholder>
  );
}
