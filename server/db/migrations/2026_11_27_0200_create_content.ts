import { sql, type Kysely } from 'kysely';
import { types } from '../dialect';

/**
 * Content, settings and statistics (DOMAIN.md §3 "Content, settings, statistics"):
 * - notice: the notices members read; status 0 草稿 / 1 已发布 / 2 已下线, pinned first. A deleted notice
 *   goes (nothing refers to it; the op log keeps its title).
 * - protocol: the two texts (id 6 平台介绍, 8 玩法说明), one row each once saved.
 * - lz_price: every change of the LZ price (USDT minor units per LZ), the newest is the price now; the
 *   30-day history reads the changes of the range and the one before it.
 * - member_day_stat: members created per Asia/Shanghai day, counted with each member insert (the
 *   statistics page's new members per day without scanning a million members).
 * - manager.prev_login_*: the login before the current one, which the welcome page shows as 上次登录.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const t = types(db);
  await db.schema
    .createTable('notice')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('title', 'varchar(100)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`pinned in (0, 1)`),
    )
    .addColumn('status', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`status in (0, 1, 2)`),
    )
    .addColumn('published_at', 'bigint')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('notice_status_idx').on('notice').columns(['status', 'id']).execute();

  await db.schema
    .createTable('protocol')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('title', 'varchar(60)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .createTable('lz_price')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('price', 'bigint', (c) => c.notNull().check(sql`price > 0`))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('lz_price_created_idx').on('lz_price').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('member_day_stat')
    .addColumn('day', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  // Members already there (a database older than this table) are counted once here.
  await sql`insert into member_day_stat (day, n)
    select (created_at + 28800000) / 86400000, count(*) from member group by (created_at + 28800000) / 86400000`.execute(
    db,
  );

  await db.schema.alterTable('manager').addColumn('prev_login_at', 'bigint').execute();
  await db.schema.alterTable('manager').addColumn('prev_login_ip', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('manager').dropColumn('prev_login_ip').execute();
  await db.schema.alterTable('manager').dropColumn('prev_login_at').execute();
  for (const table of ['member_day_stat', 'lz_price', 'protocol', 'notice']) await db.schema.dropTable(table).execute();
}
