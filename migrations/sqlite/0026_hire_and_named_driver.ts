import type { Kysely } from 'kysely';

// Frozen in time: written against Kysely<any>, never importing app code, never edited after it lands.
// Land Schedule 4 does not reach, and letters to others than the registered keeper. A car park is
// "relevant land" (Protection of Freedoms Act 2012, Schedule 4, paragraph 3) unless said
// otherwise: byelaw land is not. A keeper may be a hire or lease firm, which names the hirer with
// the documents of paragraph 13(2) (pcn_hirers: the day they were given starts the notice to
// hirer's 21 days); a keeper or an appeal may name the driver with an address for service
// (pcn_named_drivers). Each keeps its letter's posting. Personal data: removed with the notice.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('car_parks')
    .addColumn('relevant_land', 'integer', (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema
    .alterTable('pcn_keepers')
    .addColumn('keeper_type', 'text', (col) => col.notNull().defaultTo('REGISTERED_KEEPER'))
    .execute();
  for (const table of ['pcn_hirers', 'pcn_named_drivers'] as const) {
    let create = db.schema
      .createTable(table)
      .addColumn('pcn_id', 'text', (col) => col.primaryKey().references('pcns.id').onDelete('cascade'))
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('first_names', 'text', (col) => col.notNull())
      .addColumn('last_name', 'text', (col) => col.notNull())
      .addColumn('company_name', 'text', (col) => col.notNull())
      .addColumn('address_lines', 'text', (col) => col.notNull())
      .addColumn('postcode', 'text', (col) => col.notNull());
    create =
      table === 'pcn_hirers'
        ? create
            .addColumn('hire_agreement_reference', 'text', (col) => col.notNull())
            .addColumn('documents_given_on', 'text', (col) => col.notNull())
        : create.addColumn('source', 'text', (col) => col.notNull());
    await create
      .addColumn('notice_posted_on', 'text')
      .addColumn('notice_given_on', 'text')
      .addColumn('notice_proof', 'text')
      .addColumn('recorded_by', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pcn_named_drivers').execute();
  await db.schema.dropTable('pcn_hirers').execute();
  await db.schema.alterTable('pcn_keepers').dropColumn('keeper_type').execute();
  await db.schema.alterTable('car_parks').dropColumn('relevant_land').execute();
}
