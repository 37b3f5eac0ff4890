import { act, fireEvent, screen } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../__tests__/support/render';
import { CopyButton } from '../copy-button';

const ru = loadResources('ru').common as any;
const IBAN = 'DE89370400440532013000';

function stubClipboard(writeText: (text: string) => Promise<void>) {
  Object.defineProperty(navigator, 'clipboard', { value: { writeText: jest.fn(writeText) }, configurable: true });
  return navigator.clipboard.writeText as jest.Mock;
}

afterEach(() => {
  Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
  jest.useRealTimers();
});

describe('CopyButton', () => {
  it('is named for what it copies, copies the whole value and says so in a polite live region', async () => {
    jest.useFakeTimers();
    const writeText = stubClipboard(async () => undefined);
    renderInLanguage(<CopyButton value={IBAN} what="IBAN" />, 'ru');
    const button = screen.getByRole('button', { name: 'Копировать: IBAN' });
    expect(button).toHaveTextContent(ru.copy.button);
    const feedback = button.nextElementSibling!;
    expect(feedback).toHaveAttribute('aria-live', 'polite');
    expect(feedback).toBeEmptyDOMElement();
    await act(async () => fireEvent.click(button));
    expect(writeText).toHaveBeenCalledWith(IBAN);
    expect(feedback).toHaveTextContent(ru.copy.copied);
    act(() => jest.advanceTimersByTime(5000));
    expect(feedback).toBeEmptyDOMElement();
  });

  it('falls back to copying a selected text when the clipboard API refuses, and says how to copy by hand when that fails too', async () => {
    stubClipboard(async () => {
      throw new Error('not allowed');
    });
    const execCommand = jest.fn(() => true);
    (document as { execCommand: unknown }).execCommand = execCommand;
    renderInLanguage(<CopyButton value="bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" what="address" />);
    const button = screen.getByRole('button', { name: 'Copy address' });
    await act(async () => fireEvent.click(button));
    expect(execCommand).toHaveBeenCalledWith('copy');
    expect(button.nextElementSibling).toHaveTextContent('Copied');
    expect(document.querySelector('textarea')).toBeNull(); // the helper is removed again

    execCommand.mockReturnValue(false);
    await act(async () => fireEvent.click(button));
    expect(button.nextElementSibling).toHaveTextContent('Could not copy: select the text and copy it yourself.');
  });
});
