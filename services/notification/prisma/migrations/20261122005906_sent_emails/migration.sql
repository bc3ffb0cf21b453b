-- CreateEnum
CREATE TYPE "sent_email_status" AS ENUM ('pending', 'sent', 'failed');

-- CreateTable
CREATE TABLE "sent_emails" (
    "id" BIGSERIAL NOT NULL,
    "event_id" UUID NOT NULL,
    "template" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "locale" TEXT NOT NULL,
    "status" "sent_email_status" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "last_error" TEXT,
    "attempted_at" TIMESTAMP(3),
    "sent_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sent_emails_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "sent_emails_event_id_key" ON "sent_emails"("event_id");

-- CreateIndex
CREATE INDEX "sent_emails_status_created_at_idx" ON "sent_emails"("status", "created_at");

-- CreateIndex
CREATE INDEX "sent_emails_recipient_created_at_idx" ON "sent_emails"("recipient", "created_at");
