import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { normalizeCode } from '#domain/codes';
import { errorKeyOf, formErrorKey, useErrorText } from '../../../app/error-text';
import { Field } from '../../../ui/field';
import type { VerificationKind } from '#domain/verification';

/** Step 2: the code, typed in any case, with or without dashes. */
export function CodeForm({ kind, onConfirm }: { kind: VerificationKind; onConfirm: (code: string) => Promise<void> }) {
  const { t } = useTranslation('identity');
  const errorText = useErrorText();
  const { register, handleSubmit, setError, formState } = useForm<{ code: string }>();
  const submit = handleSubmit(async ({ code }) => {
    const normalized = normalizeCode(code);
    if (!normalized) return setError('code', { message: 'invalid_code_format' });
    try {
      await onConfirm(normalized);
    } catch (error) {
      setError('code', { message: errorKeyOf(error) }, { shouldFocus: true });
    }
  });
  const code = formState.errors.code?.message;
  return (
    <form onSubmit={submit} noValidate className="identity-form">
      <Field
        id={`${kind}-code`}
        label={t('me.codeLabel')}
        autoComplete="one-time-code"
        spellCheck={false}
        error={errorText(formErrorKey(code))}
        {...register('code', { required: true })}
      />
      <button type="submit" className="button primary" disabled={formState.isSubmitting}>
        {t('me.confirm')}
      </button>
    </form>
  );
}
