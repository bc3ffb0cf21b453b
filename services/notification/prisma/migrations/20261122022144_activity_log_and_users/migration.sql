-- CreateEnum
CREATE TYPE "activity_type" AS ENUM ('invited', 'accepted', 'refused', 'video_uploaded', 'completed', 'failed', 'liked', 'commented', 'referee', 'expired');

-- DropIndex
DROP INDEX "sent_emails_event_id_key";

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "email" TEXT,
    "username" TEXT,
    "display_name" TEXT,
    "locale" TEXT NOT NULL DEFAULT 'en',
    "deleted_at" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "activity_entries" (
    "id" BIGSERIAL NOT NULL,
    "event_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "type" "activity_type" NOT NULL,
    "challenge_id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "challenge_name" TEXT NOT NULL,
    "reward_cents" BIGINT NOT NULL,
    "other_user_id" UUID,
    "occurred_at" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "activity_entries_user_id_occurred_at_id_idx" ON "activity_entries"("user_id", "occurred_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "activity_entries_other_user_id_idx" ON "activity_entries"("other_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "activity_entries_event_id_user_id_key" ON "activity_entries"("event_id", "user_id");

-- CreateIndex
CREATE UNIQUE INDEX "sent_emails_event_id_recipient_key" ON "sent_emails"("event_id", "recipient");
