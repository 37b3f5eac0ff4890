import '../../../app/zod-jitless'; // before any schema is built (CSP forbids eval)
import { zodResolver } from '@hookform/resolvers/zod';
import * as React from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { STEP_ONE_SCHEMAS, SALUTATIONS } from '#domain/identity';
import { errorKeyOf, formErrorKey, useErrorText, type ErrorTextKey } from '../../../app/error-text';
import { Field, SelectField } from '../../../ui/field';
import { useDraft } from '../../../ui/use-draft';
import { ApiFailure } from '../api/identity';
import { STEP_ONE_FIELDS, type FieldName } from './step-one-fields';
import type { VerificationKind } from '#domain/verification';

type Values = Partial<Record<FieldName, string>>;

export function StepOneForm({
  kind,
  initial,
  submitLabel,
  onSubmit,
}: {
  kind: VerificationKind;
  initial?: Values | null;
  submitLabel: string;
  onSubmit: (values: Record<string, unknown>) => Promise<void>;
}) {
  const { t } = useTranslation('identity');
  const resolver = zodResolver(STEP_ONE_SCHEMAS[kind] as never) as unknown as Resolver<Values>;
  const form = useForm<Values>({ resolver, defaultValues: initial ?? {} });
  const { register, handleSubmit, setError, formState } = form;
  // What was typed survives a language switch (a new page) until it is sent.
  const draft = useDraft(`identity-${kind}`, form);
  const [formError, setFormError] = React.useState<ErrorTextKey | null>(null);
  const [retryAfter, setRetryAfter] = React.useState<number | undefined>();
  const errorText = useErrorText();

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      await onSubmit(values as Record<string, unknown>);
      draft.clear();
    } catch (error) {
      if (error instanceof ApiFailure && error.field && STEP_ONE_FIELDS[kind].some((f) => f.name === error.field)) {
        setError(error.field as FieldName, { message: error.code }, { shouldFocus: true });
      } else {
        setRetryAfter(error instanceof ApiFailure ? error.retryAfter : undefined);
        setFormError(errorKeyOf(error));
      }
    }
  });

  return (
    <form onSubmit={submit} noValidate className="identity-form">
      {STEP_ONE_FIELDS[kind].map(({ name, type, autoComplete }) => {
        const id = `${kind}-${name}`;
        const error = errorText(formErrorKey(formState.errors[name]?.message));
        if (name === 'salutation') {
          return (
            <SelectField key={name} id={id} label={t('fields.salutation')} error={error} {...register(name)}>
              <option value="">{t('fields.choose')}</option>
              {SALUTATIONS.map((s) => (
                <option key={s} value={s}>
                  {t(`fields.salutations.${s}`)}
                </option>
              ))}
            </SelectField>
          );
        }
        return (
          <Field
            key={name}
            id={id}
            label={t(`fields.${name}`)}
            type={type ?? 'text'}
            autoComplete={autoComplete}
            error={error}
            {...register(name)}
          />
        );
      })}
      {formError ? (
        <p role="alert" className="form-error">
          {errorText(formError, { retryAfter })}
        </p>
      ) : null}
      <button type="submit" className="button primary" disabled={formState.isSubmitting}>
        {formState.isSubmitting ? t('me.sending') : submitLabel}
      </button>
    </form>
  );
}
