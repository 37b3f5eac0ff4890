import { screen, within } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage, loadResources } from '../../../../__tests__/support/render';
import { StatusStepper, stepsFor } from '../components/status-stepper';

const en = loadResources('en').exchange as any;
const uk = loadResources('uk').exchange as any;

const steps = () => within(screen.getByRole('list', { name: en.order.stepper })).getAllByRole('listitem');

describe('StatusStepper', () => {
  it('maps each status onto new → processing → completed', () => {
    expect(stepsFor('new').map((s) => s.state)).toEqual(['current', 'upcoming', 'upcoming']);
    expect(stepsFor('processing').map((s) => s.state)).toEqual(['done', 'current', 'upcoming']);
    expect(stepsFor('completed_success').map((s) => s.state)).toEqual(['done', 'done', 'done']);
    expect(stepsFor('completed_failure').map((s) => s.state)).toEqual(['done', 'done', 'failed']);
  });

  it('marks the step the order is at and names the outcome with the spec’s labels', () => {
    const { rerender } = renderInLanguage(<StatusStepper status="new" />);
    expect(steps().map((li) => li.getAttribute('aria-current'))).toEqual(['step', null, null]);
    expect(steps()[0]).toHaveTextContent(en.order.status.new);
    expect(steps()[2]).toHaveTextContent(en.order.status.completed);

    rerender(<StatusStepper status="processing" />);
    expect(steps().map((li) => li.getAttribute('aria-current'))).toEqual([null, 'step', null]);
    expect(steps()[0]).toHaveTextContent(`(${en.order.stepDone})`);

    rerender(<StatusStepper status="completed_success" />);
    expect(steps()[2]).toHaveAttribute('aria-current', 'step');
    expect(steps()[2]).toHaveTextContent('Completed (success)');

    rerender(<StatusStepper status="completed_failure" />);
    expect(steps()[2]).toHaveTextContent('Completed (failure)');
    expect(steps()[2]).toHaveClass('step-failed');
  });

  it('speaks the page language', () => {
    renderInLanguage(<StatusStepper status="completed_failure" />, 'uk');
    const list = screen.getByRole('list', { name: uk.order.stepper });
    expect(list).toHaveTextContent(uk.order.status.new);
    expect(list).toHaveTextContent(uk.order.status.completed_failure);
  });
});
