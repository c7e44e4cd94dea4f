// Lint fixture: the other half of cycle-a.ts's cycle.
import { first } from './lint-fixture-cycle-a.ts';

export const second = 'second';
export const both = () => [second, first];
