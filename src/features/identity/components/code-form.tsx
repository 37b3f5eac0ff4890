import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { normalizeCode } from '../../../../domain/codes';
import type { VerificationKind } from '../../../../domain/verification';
import { Field } from '../../../components/field';
import { ApiFailure } from '../api/identity';

/** Step 2: the code, typed in any case, with or without dashes. */
export function CodeForm({ kind, onConfirm }: { kind: VerificationKind; onConfirm: (code: string) => Promise<void> }) {
  const { t } = useTranslation('identity');
  const { register, handleSubmit, setError, formState } = useForm<{ code: string }>();
  const submit = handleSubmit(async ({ code }) => {
    const normalized = normalizeCode(code);
    if (!normalized) return setError('code', { message: 'invalid_code_format' });
    try {
      await onConfirm(normalized);
    } catch (error) {
      setError('code', { message: error instanceof ApiFailure ? error.code : 'generic' }, { shouldFocus: true });
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
        error={code ? t(`errors.${code}` as 'errors.generic', { defaultValue: t('errors.generic') }) : undefined}
        {...register('code', { required: true })}
      />
      <button type="submit" className="button primary" disabled={formState.isSubmitting}>
        {t('me.confirm')}
      </button>
    </form>
  );
}
