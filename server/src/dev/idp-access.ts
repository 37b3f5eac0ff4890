import { randomBytes } from 'node:crypto';
import { mintAccessToken, type IdpKeys } from './keys';
import { idpUsersRepository } from './users';
import type { LocalIdpAccess } from '../modules/ops/service';

/** The local provider's users and keys, as the operator's API may use them (local mode only). */
export function localIdpAccess(options: {
  keys: IdpKeys;
  issuer: string;
  audience: string;
  clientId: string;
}): LocalIdpAccess {
  return {
    issuer: options.issuer,
    findUser: (db, email) => idpUsersRepository.findByEmail(db, email),
    async grantAdmin(db, email) {
      const before = await idpUsersRepository.findByEmail(db, email);
      const user = before && (await idpUsersRepository.setAdmin(db, email, true));
      return user && { id: user.id, email: user.email, wasAdmin: before.isAdmin };
    },
    async devToken(db, rawEmail) {
      const email = rawEmail.toLowerCase();
      const user = await idpUsersRepository.ensure(db, {
        email,
        name: email.split('@')[0]!,
        password: randomBytes(24).toString('base64url'), // nobody logs in with it; the token is the point
      });
      const accessToken = await mintAccessToken(options.keys, {
        issuer: options.issuer,
        audience: options.audience,
        subject: user.id,
        scope: user.isAdmin ? 'openid profile email use:muntly admin:muntly' : 'openid profile email use:muntly',
        email: user.email,
        name: user.name,
        clientId: options.clientId,
      });
      return { email: user.email, subject: user.id, admin: user.isAdmin, accessToken, expiresIn: 3600 };
    },
  };
}
