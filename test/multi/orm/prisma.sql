-- Prisma (prisma migrate dev): migration.sql for
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
