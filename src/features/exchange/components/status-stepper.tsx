import * as React from 'react';
import { useTranslation } from 'react-i18next';
import type { OrderStatus } from '../api/types';

/**
 * new → processing → completed (success) | completed (failure). The spec's labels are new and
 * completed (success/failure); processing is the finer state between them. The step the order
 * is at carries aria-current="step"; earlier steps say "done" to screen readers.
 */
export type StepState = 'done' | 'current' | 'upcoming' | 'failed';
const STEPS = ['new', 'processing', 'completed'] as const;
const POSITION: Record<OrderStatus, number> = { new: 0, processing: 1, completed_success: 2, completed_failure: 2 };

export function stepsFor(status: OrderStatus): { key: (typeof STEPS)[number]; state: StepState }[] {
  const at = POSITION[status];
  return STEPS.map((key, i) => ({
    key,
    state:
      i < at
        ? 'done'
        : i > at
          ? 'upcoming'
          : status === 'completed_failure'
            ? 'failed'
            : status === 'completed_success'
              ? 'done'
              : 'current',
  }));
}

export function StatusStepper({ status }: { status: OrderStatus }) {
  const { t } = useTranslation('exchange');
  const at = POSITION[status];
  const label = (key: (typeof STEPS)[number]) =>
    key !== 'completed'
      ? t(`order.status.${key}`)
      : at === 2
        ? t(`order.status.${status as 'completed_success'}`)
        : t('order.status.completed');
  return (
    <ol className="stepper" aria-label={t('order.stepper')}>
      {stepsFor(status).map((step, i) => (
        <li key={step.key} className={`step step-${step.state}`} aria-current={i === at ? 'step' : undefined}>
          <span className="step-marker" aria-hidden="true">
            {step.state === 'done' ? '✓' : step.state === 'failed' ? '✕' : i + 1}
          </span>{' '}
          <span className="step-label">{label(step.key)}</span>
          {i < at ? <span className="visually-hidden"> ({t('order.stepDone')})</span> : null}
        </li>
      ))}
    </ol>
  );
}
