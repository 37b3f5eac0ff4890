import path from 'node:path';
import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { forgetAnswers } from '../../src/app/ask-once';

// Forms keep drafts in sessionStorage (src/ui/use-draft.ts): each test starts without one.
beforeEach(() => {
  if (typeof window !== 'undefined') window.sessionStorage.clear();
});

// The server's run-time configuration is asked once per visit (src/app/ask-once.ts): each test is a new visit.
beforeEach(() => forgetAnswers());

// The currency picker's combobox is a chunk of its own, which the browser fetches once the page
// runs (src/ui/currency-picker.tsx): the site's tests render it as it is once it has arrived.
beforeAll(async () => {
  if (typeof window !== 'undefined') await (await import('../../src/ui/currency-picker')).preloadCurrencyCombobox();
});

// findBy…/waitFor wait up to 5 s rather than 1 s: a form that waits for a pause in typing
// (400 ms) and then for an answer can take longer than a second on a 2-core machine running the
// whole suite, and a slow pass is not a failure. A test that fails still fails, 4 s later.
configure({ asyncUtilTimeout: 5000 });

// A developer's .env (npm run regtest writes one) is for npm start, not for the tests: code that
// reads the configuration itself (the ops CLI in-process) reads an empty file instead.
process.env.ENV_FILE ??= path.join(__dirname, 'empty.env');
