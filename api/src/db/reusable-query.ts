import type { Compilable, CompiledQuery } from 'kysely';
import { directReaderOf, type Db } from './database.ts';

/**
 * A query of the signed-in hot path (the session's user, a page's photos, a profile's car parks)
 * built and compiled once per database connection and per shape, rather than on every request:
 * for these small queries Kysely's building and compiling cost more than SQLite's running of
 * them. `build` makes the query from its arguments; the query's parameters must be
 * exactly those arguments, flattened, in order (an IN list is one argument, and its length is
 * the shape). That is checked when the query is first compiled, so a query that bakes in any
 * other value fails loudly at once instead of answering with a stale one. On SQLite the read
 * runs at once when the connection is free (database.ts, readNow).
 */
export function reusableQuery<Args extends readonly unknown[], Row>(build: (db: Db, ...args: Args) => Compilable<Row>) {
  const run = keptQuery<Row>();
  return (db: Db, ...args: Args): Promise<Row[]> => {
    const shape = args.map((arg) => (Array.isArray(arg) ? arg.length : '.')).join(',');
    return run(db, shape, args.flat(), () => build(db, ...args));
  };
}

/**
 * The same for a query whose shape the caller names, when more than the arguments' lengths
 * decides its SQL (the PCN list: which filters are set, the sort). `shape` must name everything
 * the SQL text depends on; `parameters` are the query's parameters in order, checked against the
 * compiled query the first time each shape is built, as above.
 */
export function keptQuery<Row>() {
  const compiledByDb = new WeakMap<Db, Map<string, CompiledQuery<Row>>>();
  return async (db: Db, shape: string, parameters: readonly unknown[], build: () => Compilable<Row>): Promise<Row[]> => {
    let byShape = compiledByDb.get(db);
    if (!byShape) compiledByDb.set(db, (byShape = new Map()));
    let compiled = byShape.get(shape);
    if (!compiled) {
      compiled = build().compile();
      if (compiled.parameters.length !== parameters.length || compiled.parameters.some((value, i) => value !== parameters[i])) {
        throw new Error(`reusableQuery: the query's parameters are not its arguments: ${compiled.sql}`);
      }
      byShape.set(shape, compiled);
    }
    const rows = directReaderOf(db)?.(compiled.sql, parameters);
    if (rows) return rows as Row[];
    return (await db.executeQuery<Row>({ ...compiled, parameters })).rows;
  };
}
