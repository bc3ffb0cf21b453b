-- CreateEnum
CREATE TYPE "ChallengeModeration" AS ENUM ('offline', 'removed');

-- AlterTable
ALTER TABLE "challenges" ADD COLUMN     "moderation" "ChallengeModeration";
