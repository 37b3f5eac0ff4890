import * as React from 'react';

/** A labelled form field with its error next to it (announced, and linked for screen readers). */
type Props = React.InputHTMLAttributes<HTMLInputElement> & { id: string; label: string; error?: string };

export const Field = React.forwardRef<HTMLInputElement, Props>(function Field({ id, label, error, ...input }, ref) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} ref={ref} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined} {...input} />
      {error ? (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
});
