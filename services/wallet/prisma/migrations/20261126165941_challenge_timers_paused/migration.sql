-- AlterTable
ALTER TABLE "challenge_states" ADD COLUMN     "timers_paused" BOOLEAN NOT NULL DEFAULT false;
