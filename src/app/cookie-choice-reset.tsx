import * as React from 'react';
import { clearConsent } from './consent';

/** On the cookie policy page: forget the analytics choice so the banner asks again. */
export function CookieChoiceReset({ label, done }: { label: string; done: string }) {
  const [cleared, setCleared] = React.useState(false);
  return (
    <p>
      <button
        type="button"
        className="button"
        onClick={() => {
          clearConsent();
          setCleared(true);
        }}
      >
        {label}
      </button>{' '}
      <span role="status">{cleared ? done : null}</span>
    </p>
  );
}
