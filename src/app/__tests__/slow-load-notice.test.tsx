import { screen, act } from '@testing-library/react';
import * as React from 'react';
import { renderInLanguage } from '../../../__tests__/support/render';
import { routeEvents } from '../route-events';
import { SlowLoadNotice } from '../slow-load-notice';

describe('SlowLoadNotice', () => {
  it('appears in the page language when a route change is delayed and goes when it ends', () => {
    renderInLanguage(<SlowLoadNotice />, 'de');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    act(() => routeEvents.emit('delayed'));
    expect(screen.getByRole('status')).toHaveTextContent(/länger/);
    act(() => routeEvents.emit('updated'));
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });
});
