// Lint fixture (scripts/lint-rules.test.ts puts it, with cycle-b.ts, in web/src/features/profile/
// for one run): two modules that import each other's values.
import { second } from './lint-fixture-cycle-b.ts';

export const first = 'first';
export const both = () => [first, second];
