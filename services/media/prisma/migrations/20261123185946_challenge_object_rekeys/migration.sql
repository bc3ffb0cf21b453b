-- AlterTable
ALTER TABLE "challenge_access" ADD COLUMN     "rekey_requested_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "object_deletions" (
    "key" TEXT NOT NULL,
    "video_id" UUID NOT NULL,
    "not_before" TIMESTAMP(3) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "object_deletions_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "object_deletions_not_before_idx" ON "object_deletions"("not_before");
