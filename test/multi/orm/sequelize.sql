-- Sequelize 6 (sequelize-cli db:migrate, dialect postgres): the SQL of
--   queryInterface.createTable('sequelize_users', {
--     id: { type: Sequelize.UUID, primaryKey: true, allowNull: false,
--           defaultValue: Sequelize.literal('uuidv7()') },
--     name: { type: Sequelize.STRING, allowNull: false },
--     createdAt: { type: Sequelize.DATE, allowNull: false },
--     updatedAt: { type: Sequelize.DATE, allowNull: false },
--   });
CREATE TABLE IF NOT EXISTS "sequelize_users" ("id" UUID NOT NULL DEFAULT uuidv7() , "name" VARCHAR(255) NOT NULL, "createdAt" TIMESTAMP WITH TIME ZONE NOT NULL, "updatedAt" TIMESTAMP WITH TIME ZONE NOT NULL, PRIMARY KEY ("id"));
