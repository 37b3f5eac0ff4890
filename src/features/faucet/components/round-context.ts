import * as React from 'react';
import type { OwnEntry, Round } from '../api/faucet';

/**
 * The live round, shared by the public parts of the faucet island and the player's panel (which
 * sits inside the login SDK's provider): the panel tells the rest which ticket is the player's.
 */
export type RoundContextValue = {
  round: Round | null;
  skewMs: number;
  mine: OwnEntry | null;
  setMine(entry: OwnEntry | null): void;
};
export const RoundContext = React.createContext<RoundContextValue>({
  round: null,
  skewMs: 0,
  mine: null,
  setMine: () => undefined,
});
export const useRound = () => React.useContext(RoundContext);
