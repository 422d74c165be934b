-- Drizzle (drizzle-kit generate): the migration for
--   export const drizzleUsers = pgTable('drizzle_users', {
--     id: uuid('id').primaryKey().default(sql`uuidv7()`),
--     name: text('name').notNull(),
--     createdAt: timestamp('created_at').defaultNow().notNull(),
--   });
CREATE TABLE "drizzle_users" (
	"id" uuid PRIMARY KEY DEFAULT uuidv7() NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp DEFAULT now() NOT NULL
);
