import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SUPPORT_TOPICS, type SupportTopic } from '#domain/support-topics';
import { errorKeyOf, formErrorKey, useErrorText, type ErrorTextKey } from '../../../app/error-text';
import { lazyResolver } from '../../../app/form-rules';
import { Field, SelectField, TextAreaField } from '../../../ui/field';
import { usePageLanguage } from '../../../ui/localized-link';
import { useDraft } from '../../../ui/use-draft';
import { useHydrated } from '../../../ui/use-hydrated';
import { ApiFailure } from '../api/public-api';
import { sendSupportRequest, type SupportFormValues, type SupportReceipt } from '../api/send-support-request';

type FieldName = keyof SupportFormValues;
const FIELDS: readonly FieldName[] = ['name', 'email', 'topic', 'orderReference', 'message'];

/**
 * The support and contact form: validated in the browser with the API's own schema, sent to
 * POST /api/support, errors shown next to their field, and a confirmation with the ticket number.
 * The schema (and zod) is not part of the page's first load: it is fetched in idle time and runs
 * at the first check (support-resolver.ts).
 */
const resolver = lazyResolver(() =>
  import(/* webpackPrefetch: true */ '../support-resolver').then((m) => m.supportResolver),
);

export function SupportForm({ defaultTopic }: { defaultTopic?: SupportTopic }) {
  const { t } = useTranslation('support');
  const language = usePageLanguage();
  const form = useForm<SupportFormValues>({
    resolver,
    defaultValues: {
      name: '',
      email: '',
      topic: defaultTopic ?? ('' as SupportTopic),
      orderReference: '',
      message: '',
    },
  });
  const { register, handleSubmit, setError, reset, formState } = form;
  // What was typed survives a language switch (a new page) until the message is sent.
  const draft = useDraft('support', form);
  const [receipt, setReceipt] = React.useState<(SupportReceipt & { email: string }) | null>(null);
  const [formError, setFormError] = React.useState<ErrorTextKey | null>(null);
  const successRef = React.useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const errorText = useErrorText();

  React.useEffect(() => {
    if (receipt) successRef.current?.focus();
  }, [receipt]);

  const submit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const answer = await sendSupportRequest(language, values);
      setReceipt({ ...answer, email: values.email.trim() });
      reset();
      draft.clear();
    } catch (error) {
      if (error instanceof ApiFailure && error.field && FIELDS.includes(error.field as FieldName)) {
        setError(error.field as FieldName, { message: error.code }, { shouldFocus: true });
      } else {
        setFormError(errorKeyOf(error));
      }
    }
  });

  if (receipt) {
    return (
      <div className="form-success" role="status" tabIndex={-1} ref={successRef}>
        <h2>{t('form.successHeading')}</h2>
        <p>{t('form.success', { ticket: receipt.ticket, email: receipt.email })}</p>
        <button type="button" className="button" onClick={() => setReceipt(null)}>
          {t('form.another')}
        </button>
      </div>
    );
  }

  const error = (name: FieldName) => errorText(formErrorKey(formState.errors[name]?.message));
  return (
    <section aria-labelledby="support-form-heading">
      <h2 id="support-form-heading">{t('form.heading')}</h2>
      <p>{t('form.intro')}</p>
      <form onSubmit={submit} noValidate className="support-form">
        <Field
          id="support-name"
          label={t('form.name')}
          autoComplete="name"
          error={error('name')}
          {...register('name')}
        />
        <Field
          id="support-email"
          label={t('form.email')}
          type="email"
          autoComplete="email"
          error={error('email')}
          {...register('email')}
        />
        <SelectField id="support-topic" label={t('form.topic')} error={error('topic')} {...register('topic')}>
          <option value="">{t('form.choose')}</option>
          {SUPPORT_TOPICS.map((topic) => (
            <option key={topic} value={topic}>
              {t(`form.topics.${topic}`)}
            </option>
          ))}
        </SelectField>
        <Field
          id="support-reference"
          label={t('form.orderReference')}
          autoComplete="off"
          spellCheck={false}
          error={error('orderReference')}
          {...register('orderReference')}
        />
        <TextAreaField
          id="support-message"
          label={t('form.message')}
          hint={t('form.messageHint')}
          error={error('message')}
          rows={7}
          {...register('message')}
        />
        {formError ? (
          <p role="alert" className="form-error">
            {errorText(formError)}
          </p>
        ) : null}
        <button type="submit" className="button primary" disabled={!hydrated || formState.isSubmitting}>
          {formState.isSubmitting ? t('form.sending') : t('form.submit')}
        </button>
      </form>
    </section>
  );
}
