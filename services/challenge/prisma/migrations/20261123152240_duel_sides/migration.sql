-- CreateEnum
CREATE TYPE "SideStatus" AS ENUM ('awaiting_video', 'review', 'referee', 'completed', 'failed');

-- CreateTable
CREATE TABLE "challenge_sides" (
    "challenge_id" UUID NOT NULL,
    "performer_id" UUID NOT NULL,
    "status" "SideStatus" NOT NULL DEFAULT 'awaiting_video',
    "video_id" UUID,
    "review_started_at" TIMESTAMP(3),
    "reason" TEXT,
    "judged_by_referee" BOOLEAN NOT NULL DEFAULT false,
    "failed_comment" TEXT,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "challenge_sides_pkey" PRIMARY KEY ("challenge_id","performer_id")
);

-- CreateIndex
CREATE INDEX "challenge_sides_status_review_started_at_idx" ON "challenge_sides"("status", "review_started_at");

-- AddForeignKey
ALTER TABLE "challenge_sides" ADD CONSTRAINT "challenge_sides_challenge_id_fkey" FOREIGN KEY ("challenge_id") REFERENCES "challenges"("id") ON DELETE CASCADE ON UPDATE CASCADE;
