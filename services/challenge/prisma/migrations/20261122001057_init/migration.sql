-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "ChallengeStatus" AS ENUM ('draft', 'open', 'accepted', 'review', 'referee', 'completed', 'refused', 'failed', 'expired', 'cancelled');

-- CreateEnum
CREATE TYPE "ChallengeVisibility" AS ENUM ('public', 'private');

-- CreateTable
CREATE TABLE "challenges" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "owner_id" UUID NOT NULL,
    "challenged_user_id" UUID,
    "challenged_email" TEXT,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "reward_cents" BIGINT NOT NULL,
    "status" "ChallengeStatus" NOT NULL DEFAULT 'draft',
    "visibility" "ChallengeVisibility" NOT NULL DEFAULT 'public',
    "expiration_date" TIMESTAMP(3) NOT NULL,
    "expiration_time_weeks" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "topic" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMP(3),

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "handled_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "challenges_slug_key" ON "challenges"("slug");

-- CreateIndex
CREATE INDEX "challenges_owner_id_idx" ON "challenges"("owner_id");

-- CreateIndex
CREATE INDEX "challenges_challenged_user_id_idx" ON "challenges"("challenged_user_id");

-- CreateIndex
CREATE INDEX "challenges_status_idx" ON "challenges"("status");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_events_id_key" ON "outbox_events"("id");

-- CreateIndex
CREATE INDEX "outbox_events_published_at_seq_idx" ON "outbox_events"("published_at", "seq");
