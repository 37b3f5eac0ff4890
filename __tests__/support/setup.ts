import '@testing-library/jest-dom';
import { forgetAnswers } from '../../src/components/ask-once';

// Forms keep drafts in sessionStorage (src/components/use-draft.ts): each test starts without one.
beforeEach(() => {
  if (typeof window !== 'undefined') window.sessionStorage.clear();
});

// The server's run-time configuration is asked once per visit (src/components/ask-once.ts): each test is a new visit.
beforeEach(() => forgetAnswers());
