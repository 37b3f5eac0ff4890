import * as React from 'react';

/**
 * Labelled form fields with their error next to them (announced, and linked for screen readers).
 * react-hook-form's `register` output spreads onto them.
 */
type Common = { id: string; label: string; error?: string };
type InputProps = React.InputHTMLAttributes<HTMLInputElement> & Common;
type SelectProps = React.SelectHTMLAttributes<HTMLSelectElement> & Common & { children: React.ReactNode };

function described(id: string, error?: string) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? `${id}-error` : undefined };
}

function FieldError({ id, error }: { id: string; error?: string }) {
  return error ? (
    <p className="field-error" id={`${id}-error`} role="alert">
      {error}
    </p>
  ) : null;
}

export const Field = React.forwardRef<HTMLInputElement, InputProps>(function Field({ id, label, error, ...input }, ref) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} ref={ref} {...described(id, error)} {...input} />
      <FieldError id={id} error={error} />
    </div>
  );
});

export const SelectField = React.forwardRef<HTMLSelectElement, SelectProps>(function SelectField({ id, label, error, children, ...select }, ref) {
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
