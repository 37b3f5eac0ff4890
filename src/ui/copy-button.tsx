import * as React from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A button that copies one value whole (an IBAN, a reference, an address, a hash), however the
 * value wraps on screen. Its name says what it copies ("Copy IBAN"); the result is announced in
 * a polite live region beside it ("Copied", or how to copy by hand when the browser refuses).
 * The clipboard API needs a secure context; elsewhere a selected hidden textarea is copied.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (permissions, an insecure context): try the old way below.
  }
  if (typeof document === 'undefined') return false;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    // Deprecated, but the only copy path without the clipboard API.
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

const FEEDBACK_MS = 4000;

export function CopyButton({ value, what, className }: { value: string; what: string; className?: string }) {
  const { t } = useTranslation('common');
  const [result, setResult] = React.useState<'copied' | 'failed' | null>(null);
  const timer = React.useRef<ReturnType<typeof setTimeout>>(undefined);
  React.useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    const ok = await copyText(value);
    setResult(ok ? 'copied' : 'failed');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setResult(null), FEEDBACK_MS);
  };
  return (
    <span className={className ? `copy ${className}` : 'copy'}>
      <button
        type="button"
        className="button small copy-button"
        aria-label={t('copy.label', { what })}
        onClick={() => void copy()}
      >
        {t('copy.button')}
      </button>
      <span
        className={`copy-feedback${result === 'failed' ? ' copy-failed' : ''}`}
        aria-live="polite"
        aria-atomic="true"
      >
        {result === 'copied' ? t('copy.copied') : result === 'failed' ? t('copy.failed') : ''}
      </span>
    </span>
  );
}
