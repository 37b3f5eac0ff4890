import * as React from 'react';

/**
 * Labelled form fields with their error next to them (announced, and linked for screen readers).
 * react-hook-form's `register` output spreads onto them.
 */
type Common = { id: string; label: string; error?: string };
type InputProps = React.InputHTMLAttributes<HTMLInputElement> & Common;
type SelectProps = React.SelectHTMLAttributes<HTMLSelectElement> & Common & { children: React.ReactNode };
type TextAreaProps = React.TextareaHTMLAttributes<HTMLTextAreaElement> & Common & { hint: string };
type CheckboxProps = React.InputHTMLAttributes<HTMLInputElement> & Common & { hint: string };

/** The error first (read out first when it appears), then the hint. */
function described(id: string, error?: string, hint?: string) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(' ');
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy || undefined };
}

function FieldHint({ id, hint }: { id: string; hint: string }) {
  return (
    <p className="field-hint small muted" id={`${id}-hint`}>
      {hint}
    </p>
  );
}

/** A field's error under it, named by the field's aria-describedby (`<id>-error`); also used by the currency picker. */
export function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p className="field-error" id={`${id}-error`} role="alert">
      {error}
    </p>
  ) : null;
}

export const Field = React.forwardRef<HTMLInputElement, InputProps>(function Field(
  { id, label, error, ...input },
  ref,
) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} ref={ref} {...described(id, error)} {...input} />
      <FieldError id={id} error={error} />
    </div>
  );
});

export const SelectField = React.forwardRef<HTMLSelectElement, SelectProps>(function SelectField(
  { id, label, error, children, ...select },
  ref,
) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} ref={ref} {...described(id, error)} {...select}>
        {children}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
});

export const TextAreaField = React.forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextAreaField(
  { id, label, hint, error, ...textarea },
  ref,
) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} ref={ref} {...described(id, error, hint)} {...textarea} />
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
});

/** A checkbox with its label after it, a hint and its error. */
export const CheckboxField = React.forwardRef<HTMLInputElement, CheckboxProps>(function CheckboxField(
  { id, label, hint, error, ...input },
  ref,
) {
  return (
    <div className="field checkbox">
      <input type="checkbox" id={id} ref={ref} {...described(id, error, hint)} {...input} />
      <label htmlFor={id}>{label}</label>
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
});
