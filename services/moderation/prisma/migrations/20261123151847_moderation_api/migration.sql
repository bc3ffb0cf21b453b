-- CreateEnum
CREATE TYPE "ReportOutcome" AS ENUM ('removed', 'taken_offline', 'user_banned', 'no_action');

-- CreateEnum
CREATE TYPE "RefereeCaseStatus" AS ENUM ('open', 'decided');

-- AlterTable
ALTER TABLE "reports" ADD COLUMN     "outcome" "ReportOutcome",
ADD COLUMN     "resolved_at" TIMESTAMP(3),
ADD COLUMN     "resolved_by" UUID;

-- CreateTable
CREATE TABLE "known_challenges" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "owner_id" UUID NOT NULL,
    "challenged_user_id" UUID,
    "visibility" TEXT,
    "video_id" UUID,
    "ended" BOOLEAN NOT NULL DEFAULT false,
    "moderation" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "known_challenges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "known_users" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "ban_type" TEXT,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "known_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "referee_cases" (
    "id" UUID NOT NULL,
    "challenge_id" UUID NOT NULL,
    "owner_id" UUID NOT NULL,
    "challenged_user_id" UUID,
    "slug" TEXT NOT NULL,
    "challenge_name" TEXT NOT NULL,
    "reward_cents" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "video_id" UUID,
    "opened_at" TIMESTAMP(3) NOT NULL,
    "deadline" TIMESTAMP(3) NOT NULL,
    "escalated_at" TIMESTAMP(3),
    "status" "RefereeCaseStatus" NOT NULL DEFAULT 'open',
    "decision" TEXT,
    "comment" TEXT,
    "referee_id" UUID,
    "decided_at" TIMESTAMP(3),

    CONSTRAINT "referee_cases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_entries" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "actor_id" UUID,
    "action" TEXT NOT NULL,
    "target_type" TEXT NOT NULL,
    "target_id" TEXT NOT NULL,
    "reason" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("seq")
);

-- CreateIndex
CREATE UNIQUE INDEX "referee_cases_challenge_id_key" ON "referee_cases"("challenge_id");

-- CreateIndex
CREATE INDEX "referee_cases_status_deadline_idx" ON "referee_cases"("status", "deadline");

-- CreateIndex
CREATE UNIQUE INDEX "audit_entries_id_key" ON "audit_entries"("id");

-- CreateIndex
CREATE INDEX "audit_entries_created_at_idx" ON "audit_entries"("created_at");

-- CreateIndex
CREATE INDEX "reports_reporter_id_created_at_idx" ON "reports"("reporter_id", "created_at");

-- CreateIndex
CREATE INDEX "reports_entity_type_entity_id_status_idx" ON "reports"("entity_type", "entity_id", "status");

-- The audit log is append-only: nobody, not even the service's own account, updates or deletes
-- an entry (docs/adr/0042).
-- The migration runner splits scripts into statements at every semicolon, quoted or not: the
-- body's one semicolon is written \073 (octal) in an escape string.
CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql
  AS E'BEGIN RAISE EXCEPTION ''audit_entries is append-only: % refused'', TG_OP\073 END';

CREATE TRIGGER audit_entries_no_update_or_delete
  BEFORE UPDATE OR DELETE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only();

CREATE TRIGGER audit_entries_no_truncate
  BEFORE TRUNCATE ON "audit_entries"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only();
