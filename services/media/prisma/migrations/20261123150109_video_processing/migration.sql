-- AlterTable
ALTER TABLE "challenge_videos" ADD COLUMN     "duration_ms" INTEGER,
ADD COLUMN     "failure_reason" TEXT,
ADD COLUMN     "frame_hashes" TEXT,
ADD COLUMN     "height" INTEGER,
ADD COLUMN     "processed_at" TIMESTAMP(3),
ADD COLUMN     "recycled_from_challenge_id" UUID,
ADD COLUMN     "recycled_from_video_id" UUID,
ADD COLUMN     "sha256" TEXT,
ADD COLUMN     "width" INTEGER;

-- CreateIndex
CREATE INDEX "challenge_videos_sha256_idx" ON "challenge_videos"("sha256");

-- CreateIndex
CREATE INDEX "challenge_videos_status_duration_ms_idx" ON "challenge_videos"("status", "duration_ms");
