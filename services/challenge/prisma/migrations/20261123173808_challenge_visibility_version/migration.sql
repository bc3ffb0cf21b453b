-- AlterTable
ALTER TABLE "challenges" ADD COLUMN     "visibility_version" INTEGER NOT NULL DEFAULT 0;
