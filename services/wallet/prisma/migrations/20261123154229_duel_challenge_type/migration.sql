-- AlterTable
ALTER TABLE "challenge_states" ADD COLUMN     "challenge_type" TEXT NOT NULL DEFAULT 'solo';
