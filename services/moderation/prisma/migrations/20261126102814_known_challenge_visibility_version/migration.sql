-- AlterTable
ALTER TABLE "known_challenges" ADD COLUMN     "visibility_version" INTEGER;
