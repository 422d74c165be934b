-- Prisma 7.10.1: the migration.sql that `prisma migrate dev` writes as a project's first migration
-- (the diff from the migration history, none yet, replayed on a fresh shadow database, to the
-- schema), computed by Prisma 7.10.1's own schema engine (its WebAssembly build, shipped in the
-- prisma package), for
--   model PrismaUser {
--     id        String   @id @default(dbgenerated("uuidv7()")) @db.Uuid
--     name      String
--     createdAt DateTime @default(now())
--   }
-- (Prisma's own @default(uuid(7)) is made by Prisma Client, not by the database: no DEFAULT.)
-- CreateTable
CREATE TABLE "PrismaUser" (
    "id" UUID NOT NULL DEFAULT uuidv7(),
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PrismaUser_pkey" PRIMARY KEY ("id")
);
