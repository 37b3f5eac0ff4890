import { emailKey } from '../../../../domain/email';
import { protectionRepository } from './repository';
import type { Db } from '../../db/client';

/**
 * The anti-phishing phrase every email to an account's address shows at its top (notify's `send`
 * asks here for each email). Apart from service.ts, which writes emails itself: notify depends
 * on this file only.
 */
export function phraseOfRecipient(db: Db, email: string): Promise<string | null> {
  return protectionRepository.phraseOfEmail(db, emailKey(email));
}
