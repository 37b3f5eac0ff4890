import fp from 'fastify-plugin';
import { ensureAccount, type EmailChangeHookOf } from '../modules/accounts/service';
import type { FastifyRequest } from 'fastify';

export type CallerAccount = Awaited<ReturnType<typeof ensureAccount>>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's account, set by `app.withAccount` / `app.withOptionalAccount`. */
    account?: CallerAccount;
  }
  interface FastifyInstance {
    /**
     * onRequest hook of every route that acts for the logged-in caller: authenticates (401/403
     * exactly as `app.authenticate`), then sets `request.account`, creating the account on the
     * caller's first request.
     */
    withAccount: (request: FastifyRequest) => Promise<void>;
    /** The same for routes open to anyone: no Authorization header, no account; a header sent must hold a valid token. */
    withOptionalAccount: (request: FastifyRequest) => Promise<void>;
  }
}

/**
 * The one place a request gets its caller's account. (GET /api/me keeps its own call: it answers
 * from a short cache without touching the database and may ask the provider for the profile.)
 */
export const accountPlugin = fp<{ onEmailChange: EmailChangeHookOf }>(
  async (app, { onEmailChange }) => {
    app.decorateRequest('account', undefined);
    const withAccount = async (request: FastifyRequest) => {
      await app.authenticate(request);
      request.account = await ensureAccount(app.db, request.auth!, {}, onEmailChange(request));
    };
    app.decorate('withAccount', withAccount);
    app.decorate('withOptionalAccount', async (request: FastifyRequest) => {
      if (request.headers.authorization) await withAccount(request);
    });
  },
  { name: 'account' },
);
