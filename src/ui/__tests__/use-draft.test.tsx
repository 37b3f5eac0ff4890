import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { useForm } from 'react-hook-form';
import { useDraft } from '../use-draft';

type Values = { address: string; amount: string; code: string; agree: boolean };

/** A form as the site's are: react-hook-form, a draft, a submit that may fail. */
function DraftForm({ onSend }: { onSend: (values: Values) => Promise<void> }) {
  const form = useForm<Values>({ defaultValues: { address: '', amount: '', code: '', agree: false } });
  const draft = useDraft('test-form', form, ['code']);
  const [failed, setFailed] = React.useState(false);
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSend(values);
      draft.clear();
      form.reset();
    } catch {
      setFailed(true);
    }
  });
  return (
    <form onSubmit={submit}>
      <label>
        Address <input {...form.register('address')} />
      </label>
      <label>
        Amount <input {...form.register('amount')} />
      </label>
      <label>
        Code <input {...form.register('code')} />
      </label>
      <label>
        Agree <input type="checkbox" {...form.register('agree')} />
      </label>
      <button type="submit">Send</button>
      {failed ? <p role="alert">Failed</p> : null}
    </form>
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const stored = () => JSON.parse(window.sessionStorage.getItem('muntly:draft:test-form') ?? 'null');

beforeEach(() => window.sessionStorage.clear());

describe('useDraft', () => {
  it('puts back what was typed when the form mounts again (a language switch loads a new page), never the one-time code', async () => {
    const first = render(<DraftForm onSend={async () => undefined} />);
    type('Address', 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    type('Amount', '0,001');
    type('Code', 'ABCD-EFGH-IJKL-MNOP');
    fireEvent.click(screen.getByLabelText('Agree'));
    await waitFor(() =>
      expect(stored()).toEqual({ address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', amount: '0,001', agree: true }),
    );
    first.unmount();

    render(<DraftForm onSend={async () => undefined} />);
    await waitFor(() => expect(screen.getByLabelText('Amount')).toHaveValue('0,001'));
    expect(screen.getByLabelText('Address')).toHaveValue('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    expect(screen.getByLabelText('Agree')).toBeChecked();
    expect(screen.getByLabelText('Code')).toHaveValue('');
  });

  it('keeps the values and the draft when sending fails, and forgets the draft once sent', async () => {
    let fail = true;
    render(
      <DraftForm
        onSend={async () => {
          if (fail) throw new Error('network');
        }}
      />,
    );
    type('Amount', '12.5');
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed');
    expect(screen.getByLabelText('Amount')).toHaveValue('12.5');
    expect(stored()).toEqual({ amount: '12.5' });

    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(screen.getByLabelText('Amount')).toHaveValue(''));
    expect(stored()).toBeNull();
  });

  it('ignores a draft that is not an object of form values', async () => {
    window.sessionStorage.setItem('muntly:draft:test-form', '["not", "a", "draft"]');
    render(<DraftForm onSend={async () => undefined} />);
    expect(screen.getByLabelText('Amount')).toHaveValue('');
    window.sessionStorage.setItem('muntly:draft:test-form', '{broken');
    render(<DraftForm onSend={async () => undefined} />);
    await waitFor(() => expect(window.sessionStorage.getItem('muntly:draft:test-form')).toBeNull());
  });
});
