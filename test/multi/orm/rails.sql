-- Rails 8.1 (ActiveRecord, PostgreSQL adapter): the SQL that `bin/rails db:migrate` sends for
--   create_table :rails_users, id: :uuid, default: -> { "uuidv7()" } do |t|
--     t.string :name
--     t.timestamps
--   end
-- (the form rails/rails#56586's primary_key_default generator option writes into new migrations)
BEGIN;
CREATE TABLE "rails_users" ("id" uuid DEFAULT uuidv7() NOT NULL PRIMARY KEY, "name" character varying, "created_at" timestamp(6) NOT NULL, "updated_at" timestamp(6) NOT NULL);
COMMIT;
