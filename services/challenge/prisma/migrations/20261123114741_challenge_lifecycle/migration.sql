-- CreateEnum
CREATE TYPE "ChallengeType" AS ENUM ('solo', 'duel');

-- DropIndex
DROP INDEX "challenges_status_idx";

-- AlterTable
ALTER TABLE "challenges" ADD COLUMN     "accepted_at" TIMESTAMP(3),
ADD COLUMN     "challenge_failed_comment" TEXT,
ADD COLUMN     "challenge_type" "ChallengeType" NOT NULL DEFAULT 'solo',
ADD COLUMN     "judged_by_referee" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "proof_phrase" TEXT,
ADD COLUMN     "reason" TEXT,
ADD COLUMN     "review_started_at" TIMESTAMP(3),
ADD COLUMN     "tags" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "known_users" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "username_key" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "challengeable" BOOLEAN NOT NULL DEFAULT true,
    "minimum_challenge_cents" INTEGER,
    "birthday" DATE,
    "banned" BOOLEAN NOT NULL DEFAULT false,
    "deleted_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "known_users_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "known_users_username_key_key" ON "known_users"("username_key");

-- CreateIndex
CREATE UNIQUE INDEX "known_users_email_key" ON "known_users"("email");

-- CreateIndex
CREATE INDEX "challenges_challenged_email_idx" ON "challenges"("challenged_email");

-- CreateIndex
CREATE INDEX "challenges_status_expiration_date_idx" ON "challenges"("status", "expiration_date");
