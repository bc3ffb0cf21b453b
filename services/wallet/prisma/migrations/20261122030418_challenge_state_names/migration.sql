-- AlterTable
ALTER TABLE "challenge_states" ADD COLUMN     "challenge_name" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "slug" TEXT NOT NULL DEFAULT '';
