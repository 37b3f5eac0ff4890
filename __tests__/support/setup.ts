import '@testing-library/jest-dom';

// Forms keep drafts in sessionStorage (src/components/use-draft.ts): each test starts without one.
beforeEach(() => {
  if (typeof window !== 'undefined') window.sessionStorage.clear();
});
