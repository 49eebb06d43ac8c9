import { type Kysely, sql } from 'kysely';
import { idColumn } from '../dialect.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  const [idType, idDef] = idColumn(db);

  await db.schema
    .createTable('users')
    .addColumn('id', idType, idDef)
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text', (c) => c.notNull())
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('avatar', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addColumn('banned', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('users_provider_id_unique', ['provider', 'provider_id'])
    .execute();
  await db.schema
    .createIndex('users_login_idx')
    .on('users')
    .expression(sql`provider, lower(login)`)
    .execute();

  await db.schema
    .createTable('moderators')
    .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .execute();

  await db.schema
    .createTable('streamers')
    .addColumn('id', idType, idDef)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull().unique())
    .addColumn('platform', 'text', (c) => c.notNull())
    .addColumn('kick_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('offline'))
    .addColumn('game', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('evaluated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('community_locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('submitter', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('ratings')
    .addColumn('streamer_id', 'integer', (c) => c.primaryKey().references('streamers.id').onDelete('cascade'))
    .addColumn('s', 'integer', (c) => c.notNull())
    .addColumn('g', 'integer', (c) => c.notNull())
    .addColumn('a', 'integer', (c) => c.notNull())
    .addColumn('v', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('ns', 'integer', (c) => c.notNull())
    .addColumn('o', 'integer', (c) => c.notNull())
    .addColumn('reward', 'integer', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rater_groups')
    .addColumn('id', idType, idDef)
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('streamer_id', 'integer', (c) => c.unique().references('streamers.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('rater_group_members')
    .addColumn('id', idType, idDef)
    .addColumn('group_id', 'integer', (c) => c.notNull().references('rater_groups.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('rater'))
    .addColumn('added_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('members_group_user_unique', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('members_user_idx').on('rater_group_members').column('user_id').execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', idType, idDef)
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('author', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('comments_streamer_idx')
    .on('comments')
    .columns(['streamer_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('community_ratings')
    .addColumn('id', idType, idDef)
    .addColumn('group_id', 'integer', (c) => c.notNull().references('rater_groups.id').onDelete('cascade'))
    .addColumn('streamer_id', 'integer', (c) => c.notNull().references('streamers.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('s', 'integer', (c) => c.notNull())
    .addColumn('g', 'integer', (c) => c.notNull())
    .addColumn('a', 'integer', (c) => c.notNull())
    .addColumn('v', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('ns', 'integer', (c) => c.notNull())
    .addColumn('o', 'integer', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('community_group_user_unique', ['group_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('community_streamer_idx')
    .on('community_ratings')
    .column('streamer_id')
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('secrets')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('oauth_states')
    .addColumn('id', idType, idDef)
    .addColumn('state', 'text', (c) => c.notNull().unique())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('verifier', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_seen_idx').on('sessions').column('seen_at').execute();
}
