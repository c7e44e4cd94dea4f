import { sql, type Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// The text the lists sort by is collated
// "C" (code-point order), as SQLite's BINARY compares it. Under the cluster's default collation
// (en-US on most operators' servers) PostgreSQL put 'Émile' beside 'emma' and 'b_1' before 'b1'
// where SQLite does not, and lower() and ILIKE folded accented capitals that SQLite's leave
// alone; under "C" both fold ASCII letters only. Changing a column's collation rebuilds its indexes.
const SORTED_TEXT: Record<string, readonly string[]> = {
  users: ['first_name', 'last_name', 'email', 'role'],
  car_parks: ['name', 'site_code', 'postcode'],
  pcns: ['vehicle_registration', 'offence_type', 'status'],
};

async function collateAs(db: Kysely<any>, collation: 'C' | 'default'): Promise<void> {
  for (const [table, columns] of Object.entries(SORTED_TEXT)) {
    const changes = columns.map((column) => sql`alter column ${sql.ref(column)} type text collate ${sql.raw(`"${collation}"`)}`);
    await sql`alter table ${sql.table(table)} ${sql.join(changes)}`.execute(db);
  }
}

export async function up(db: Kysely<any>): Promise<void> {
  await collateAs(db, 'C');
}

export async function down(db: Kysely<any>): Promise<void> {
  await collateAs(db, 'default');
}
