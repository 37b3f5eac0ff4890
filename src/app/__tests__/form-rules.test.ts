import { lazyResolver, rulesResolver } from '../form-rules';
import type { Resolver } from 'react-hook-form';

type Values = { email: string };
const options = { fields: {}, shouldUseNativeValidation: false } as Parameters<Resolver<Values>>[2];
const schemaResolver = rulesResolver<Values>((values, fail) => {
  if (!values.email.includes('@')) fail('email', 'invalid_email');
});

describe('a form whose checks arrive when it is first checked', () => {
  it('loads them once, at the first check, and reports what they find', async () => {
    const load = jest.fn(async () => schemaResolver);
    const resolver = lazyResolver(load);
    expect(load).not.toHaveBeenCalled();
    expect((await resolver({ email: 'nope' }, undefined, options)).errors).toEqual({
      email: { type: 'rule', message: 'invalid_email' },
    });
    expect((await resolver({ email: 'a@b.example' }, undefined, options)).errors).toEqual({});
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('lets the form be sent unchecked when they cannot be fetched (the API checks it), and asks again at the next check', async () => {
    const load = jest
      .fn<Promise<Resolver<Values>>, []>()
      .mockRejectedValueOnce(new Error('Loading chunk 123 failed'))
      .mockResolvedValue(schemaResolver);
    const resolver = lazyResolver(load);
    expect(await resolver({ email: 'nope' }, undefined, options)).toEqual({ values: { email: 'nope' }, errors: {} });
    expect((await resolver({ email: 'nope' }, undefined, options)).errors).toEqual({
      email: { type: 'rule', message: 'invalid_email' },
    });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
