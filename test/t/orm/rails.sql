-- Rails (ActiveRecord, PostgreSQL adapter): the SQL that `bin/rails db:migrate` sends for
--   create_table :rails_users, id: :uuid, default: -> { "uuidv7()" } do |t|
--     t.string :name
--     t.timestamps
--   end
-- (the form rails/rails#56586's primary_key_default generator option writes into new migrations).
-- The CREATE TABLE is ActiveRecord 6.1.7.10's own output (Debian's ruby-activerecord, no server);
-- 8.1's schema creation writes the column options in the same order (DEFAULT, NOT NULL, PRIMARY KEY)
-- and t.timestamps as timestamp(6) NOT NULL. The migration runs in one transaction.
BEGIN;
CREATE TABLE "rails_users" ("id" uuid DEFAULT uuidv7() NOT NULL PRIMARY KEY, "name" character varying, "created_at" timestamp(6) NOT NULL, "updated_at" timestamp(6) NOT NULL);
COMMIT;
