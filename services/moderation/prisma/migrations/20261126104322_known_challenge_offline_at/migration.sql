-- AlterTable
ALTER TABLE "known_challenges" ADD COLUMN     "offline_at" TIMESTAMP(3);
